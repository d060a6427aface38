import type { Metadata } from "next";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { ComparePage } from "@/components/diff/compare-page";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Compare changes · ${r.fullName}` };
}

/** /<owner>/<repo>/compare ("New pull request"): the pickers, both on the default branch, to choose from. */
export default async function Page({ params }: { params: Params }) {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return <ComparePage owner={r.owner} name={r.name} spec={`${r.defaultBranch}...${r.defaultBranch}`} />;
}
