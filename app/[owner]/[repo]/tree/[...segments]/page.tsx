import type { Metadata } from "next";
import { TreePage } from "@/components/code/browser";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";

type Params = Promise<{ owner: string; repo: string; segments: string[] }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, segments } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `${segments.slice(1).map(decodeSegment).join("/") || decodeSegment(segments[0])} · ${r.fullName}` };
}

export default async function Page({ params }: { params: Params }) {
  const { owner, repo, segments } = await params;
  return <TreePage owner={decodeSegment(owner)} name={decodeSegment(repo)} segments={segments.map(decodeSegment)} />;
}
