import { loadRepo } from "@/components/code/data";
import { RepoHeader } from "@/components/code/parts";
import { decodeSegment } from "@/components/code/resolve";
import { getCurrentActor } from "@/server/auth/session";

type Params = Promise<{ owner: string; repo: string }>;

/**
 * Every page of a repository: the repository header (name, visibility, tabs) above the page.
 * An unknown or hidden repository is the site's 404 (from loadRepo, before anything renders);
 * a missing branch, file or issue inside a readable repository renders this folder's
 * not-found.tsx under the header, so the reader keeps their place.
 */
export default async function RepoLayout({ params, children }: { params: Params; children: React.ReactNode }) {
  const { owner, repo } = await params;
  const [r, actor] = await Promise.all([loadRepo(decodeSegment(owner), decodeSegment(repo)), getCurrentActor()]);
  return (
    <>
      <RepoHeader repo={r} signedIn={Boolean(actor)} />
      {children}
    </>
  );
}
