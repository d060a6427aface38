import type { Metadata } from "next";
import { TreePage } from "@/components/code/browser";
import { loadRepo } from "@/components/code/data";

type Params = Promise<{ owner: string; repo: string; segments: string[] }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo, segments } = await params;
  const r = await loadRepo(owner, repo);
  return { title: `${segments.slice(1).join("/") || segments[0]} · ${r.fullName}` };
}

export default async function Page({ params }: { params: Params }) {
  const { owner, repo, segments } = await params;
  return <TreePage owner={owner} name={repo} segments={segments} />;
}
