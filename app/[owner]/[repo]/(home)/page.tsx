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

export default async function RepoPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  return <RepoHome owner={decodeSegment(owner)} name={decodeSegment(repo)} />;
}
