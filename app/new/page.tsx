import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentActor, getServerCaller } from "@/server/auth/session";
import { card, cx } from "@/components/ui/styles";
import { NewRepoForm } from "@/components/repos/new-repo-form";

export const metadata: Metadata = { title: "New repository" };

/**
 * /new: create a repository; the owner picker lists the user and the organizations where they may
 * create (orgs.list canCreateRepos; docs/orgs.md "Pages"); `?owner=<org>` preselects one.
 */
export default async function NewRepoPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await getCurrentActor();
  if (!actor) redirect("/signin?callbackUrl=%2Fnew");
  const orgs = await (await getServerCaller()).orgs.list();
  const owners = [actor.user.username, ...orgs.filter((o) => o.canCreateRepos).map((o) => o.name)];
  const wanted = (await searchParams).owner;
  const owner = owners.find((o) => typeof wanted === "string" && o.toLowerCase() === wanted.toLowerCase()) ?? actor.user.username;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="text-2xl font-semibold tracking-tight">Create a new repository</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        A repository holds your project&apos;s files and their history. Push an existing project to it after creating it.
      </p>
      <div className={cx(card, "mt-6 p-6")}>
        <NewRepoForm owner={owner} owners={owners} />
      </div>
    </div>
  );
}
