import type { Metadata } from "next";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { ComparePage } from "@/components/diff/compare-page";

type Params = Promise<{ owner: string; repo: string; spec: string[] }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, spec } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Comparing ${spec.map(decodeSegment).join("/")} · ${r.fullName}` };
}

/** /<owner>/<repo>/compare/<base>...<head> (docs/pulls.md "Diff"); refs keep their slashes. */
export default async function Page({ params }: { params: Params }) {
  const { owner, repo, spec } = await params;
  return <ComparePage owner={decodeSegment(owner)} name={decodeSegment(repo)} spec={spec.map(decodeSegment).join("/")} />;
}
