import type { Metadata } from "next";
import { loadPullsContext } from "@/components/pulls/data";
import { PullList } from "@/components/pulls/list";

type Params = Promise<{ owner: string; repo: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadPullsContext(owner, repo);
  return { title: `Pull requests · ${r.fullName}` };
}

export default async function PullsPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { owner, repo } = await params;
  return <PullList ctx={await loadPullsContext(owner, repo)} query={await searchParams} />;
}
