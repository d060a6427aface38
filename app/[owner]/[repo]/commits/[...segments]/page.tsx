import type { Metadata } from "next";
import { HistoryPage, historyTitle } from "@/components/code/history-page";
import { loadRepo } from "@/components/code/data";
import { afterCursor, pageNumber } from "@/components/code/history";
import { decodeSegment } from "@/components/code/resolve";

type Params = Promise<{ owner: string; repo: string; segments: string[] }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, segments } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  return { title: await historyTitle(r, segments.map(decodeSegment)) };
}

export default async function Page({ params, searchParams }: { params: Params; searchParams: Search }) {
  const [{ owner, repo, segments }, search] = await Promise.all([params, searchParams]);
  return (
    <HistoryPage
      owner={decodeSegment(owner)}
      name={decodeSegment(repo)}
      segments={segments.map(decodeSegment)}
      page={pageNumber(search.page)}
      after={afterCursor(search.after)}
    />
  );
}
