import type { Metadata } from "next";
import { BlobPage } from "@/components/code/browser";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";

type Params = Promise<{ owner: string; repo: string; segments: string[] }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, segments } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `${decodeSegment(segments[segments.length - 1])} · ${r.fullName}` };
}

export default async function Page({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ owner, repo, segments }, search] = await Promise.all([params, searchParams]);
  return (
    <BlobPage owner={decodeSegment(owner)} name={decodeSegment(repo)} segments={segments.map(decodeSegment)} plain={search.plain === "1"} />
  );
}
