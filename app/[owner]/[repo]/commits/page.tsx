import type { Metadata } from "next";
import { HistoryPage } from "@/components/code/history-page";
import { loadRepo } from "@/components/code/data";
import { afterCursor, pageNumber } from "@/components/code/history";
import { decodeSegment } from "@/components/code/resolve";

type Params = Promise<{ owner: string; repo: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: `Commits · ${r.fullName}` };
}

/** /<owner>/<repo>/commits: the history of the default branch. */
export default async function Page({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ owner, repo }, search] = await Promise.all([params, searchParams]);
  return (
    <HistoryPage
      owner={decodeSegment(owner)}
      name={decodeSegment(repo)}
      segments={[]}
      page={pageNumber(search.page)}
      after={afterCursor(search.after)}
    />
  );
}
