import type { Metadata } from "next";
import { RepoHome } from "@/components/code/browser";
import { loadRepo } from "@/components/code/data";

type Params = Promise<{ owner: string; repo: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { owner, repo } = await params;
  const r = await loadRepo(owner, repo);
  return { title: r.description ? `${r.fullName}: ${r.description}` : r.fullName };
}

export default async function RepoPage({ params }: { params: Params }) {
  const { owner, repo } = await params;
  return <RepoHome owner={owner} name={repo} />;
}
