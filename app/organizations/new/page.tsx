import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { card, cx } from "@/components/ui/styles";
import { NewOrgForm } from "@/components/orgs/new-org-form";

export const metadata: Metadata = { title: "New organization" };

/** /organizations/new (docs/orgs.md "Pages"): any signed-in user creates an organization and becomes its owner. */
export default async function NewOrgPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Forganizations%2Fnew");
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create a new organization</h1>
      <p className="mt-1 text-sm text-muted-foreground">An organization owns repositories and has members. You become its first owner.</p>
      <div className={cx(card, "mt-6 p-6")}>
        <NewOrgForm />
      </div>
    </div>
  );
}
