import type { Metadata } from "next";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { CommitPage } from "@/components/diff/commit-page";

type Params = Promise<{ owner: string; repo: string; sha: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, sha } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Commit ${decodeSegment(sha).slice(0, 7)} · ${r.fullName}` };
}

/** /<owner>/<repo>/commit/<sha>: one commit and its diff (docs/pulls.md "Diff"). */
export default async function Page({ params }: { params: Params }) {
  const { owner, repo, sha } = await params;
  return <CommitPage owner={decodeSegment(owner)} name={decodeSegment(repo)} sha={decodeSegment(sha)} />;
}
