import { decodeSegment } from "@/components/code/resolve";
import { resolveTree } from "@/components/code/targets";

type Params = Promise<{ owner: string; repo: string; segments: string[] }>;

/** Resolves the ref and path first, so a missing one is a real 404 (or a redirect) before loading.tsx streams. */
export default async function Layout({ params, children }: { params: Params; children: React.ReactNode }) {
  const { owner, repo, segments } = await params;
  await resolveTree(decodeSegment(owner), decodeSegment(repo), segments.map(decodeSegment).join("/"));
  return children;
}
