import type { Metadata } from "next";
import { loadPullsContext } from "@/components/pulls/data";
import { StacksPage } from "@/components/pulls/stacks-page";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadPullsContext(owner, repo);
  return { title: `Stacks · ${r.fullName}` };
}

/** The repository's stacks (Graphite-style; docs/pulls.md "Stacks in the browser"): list, create, reorder, delete. */
export default async function Stacks({ params }: { params: Params }) {
  const { owner, repo } = await params;
  return <StacksPage ctx={await loadPullsContext(owner, repo)} />;
}
