/**
 * The caller's linked OpenID Connect identities (users.externalIdentities.list / unlink; docs/
 * security.md "Single sign-on (OpenID Connect)", "Linking").
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { uuid } from "@/server/validation/ids";

export interface ExternalIdentityRow {
  id: string;
  provider: string;
  issuer: string;
  subject: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** → the identities linked to `userId`, oldest first. */
export async function listExternalIdentities(db: Db, userId: string): Promise<ExternalIdentityRow[]> {
  return db.externalIdentity.findMany({
    where: { userId },
    orderBy: { createdAt: "asc" },
    select: { id: true, provider: true, issuer: true, subject: true, createdAt: true, lastUsedAt: true },
  });
}

export const unlinkExternalIdentityInput = z.object({ id: uuid("id") });

/**
 * Unlinks identity `id` from `userId` → {id, unlinked: true}. NOT_FOUND unless it is the user's;
 * PRECONDITION_FAILED when it is the account's last way to sign in (no password, no GitHub
 * identity, no passkey and no other linked identity).
 */
export async function unlinkExternalIdentity(db: Db, userId: string, id: string): Promise<{ id: string; unlinked: true }> {
  const row = await db.externalIdentity.findFirst({ where: { id, userId }, select: { id: true } });
  if (!row) throw new AppError("NOT_FOUND", "linked identity not found");
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { passwordHash: true, githubId: true, _count: { select: { externalIdentities: true, passkeys: true } } },
  });
  const otherWays =
    Boolean(user?.passwordHash) ||
    Boolean(user?.githubId) ||
    (user?._count.passkeys ?? 0) > 0 ||
    (user?._count.externalIdentities ?? 0) > 1;
  if (!otherWays) {
    throw new AppError(
      "PRECONDITION_FAILED",
      "this identity is the only way to sign in to this account; add a passkey or link another identity before unlinking it",
    );
  }
  await db.externalIdentity.delete({ where: { id } });
  return { id, unlinked: true };
}
