import type { Metadata } from "next";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";
import { SearchPage, searchParamsOf } from "@/components/search/search-page";

type Params = Promise<{ owner: string; repo: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Search code · ${r.fullName}` };
}

/** /<owner>/<repo>/search (docs/ai.md "Page"): semantic code search over the default branch. */
export default async function Page({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ owner, repo }, search] = await Promise.all([params, searchParams]);
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return <SearchPage repo={r} params={searchParamsOf(search)} />;
}
