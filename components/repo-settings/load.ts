/** Server-side loading shared by the repository settings pages. */
import { notFound } from "next/navigation";
import { loadRepo } from "@/components/code/data";
import { decodeSegment } from "@/components/code/resolve";

export type SettingsParams = Promise<{ owner: string; repo: string }>;

/**
 * The repository for its settings pages: admins only; everyone else gets the 404 page, as on
 * GitHub. `loadRepo` is memoized per request, so the layout and the page share one lookup.
 */
export async function loadAdminRepo(params: SettingsParams) {
  const { owner, repo } = await params;
  const r = await loadRepo(decodeSegment(owner), decodeSegment(repo));
  if (r.permission !== "admin") notFound();
  return r;
}
