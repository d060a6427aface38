import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor } from "@/server/auth/session";
import { card, cx } from "@/components/ui/styles";
import { NewRepoForm } from "@/components/repos/new-repo-form";

export const metadata: Metadata = { title: "New repository" };

export default async function NewRepoPage() {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fnew");
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create a new repository</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        A repository holds your project&apos;s files and their history. Push an existing project to it after creating it.
      </p>
      <div className={cx(card, "mt-6 p-6")}>
        <NewRepoForm owner={actor.user.username} />
      </div>
    </div>
  );
}
