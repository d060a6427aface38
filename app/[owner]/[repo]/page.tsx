import type { Metadata } from "next";
import { RepoHome } from "@/components/code/browser";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: r.description ? `${r.fullName}: ${r.description}` : r.fullName };
}

/**
 * The repository home. No loading.tsx on purpose: its file list is part of the first HTML, not a
 * streamed boundary that React would reveal only ≥ 300 ms after the first frame; the latest-commit
 * bar and the README stream in after it (docs/performance.md "Hardening II, item 18").
 */
export default async function RepoPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  return <RepoHome owner={decodeSegment(owner)} name={decodeSegment(repo)} />;
}
