/** orgs.get: an organization's public profile and the caller's role in it. */
import { z } from "zod";
import type { Db } from "@/server/db";
import { line } from "@/server/validation/strings";
import type { Actor } from "@/server/auth/actor";
import { findOrg, toOrgView, type OrgView } from "./model";

export const orgNameInput = z.object({ name: line("name").trim().min(1, "name is required").max(100) });

/** The organization `name` (anyone may read it, as a user profile). Errors: NOT_FOUND. */
export async function getOrg(db: Db, actor: Actor | null, input: z.input<typeof orgNameInput>): Promise<OrgView> {
  const { name } = orgNameInput.parse(input);
  const { org, role } = await findOrg(db, name, actor?.user.id ?? null);
  return toOrgView(org, role);
}
