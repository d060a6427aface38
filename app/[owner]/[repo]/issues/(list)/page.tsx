import type { Metadata } from "next";
import { loadIssuesContext } from "@/components/issues/data";
import { IssueList } from "@/components/issues/list";

type Params = Promise<{ owner: string; repo: string }>;
type Search = Promise<Record<string, string | string[] | undefined>>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const { repo: r } = await loadIssuesContext(owner, repo);
  return { title: `Issues · ${r.fullName}` };
}

export default async function IssuesPage({ params, searchParams }: { params: Params; searchParams: Search }) {
  const { owner, repo } = await params;
  const ctx = await loadIssuesContext(owner, repo);
  return <IssueList ctx={ctx} query={await searchParams} />;
}
