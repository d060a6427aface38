import { notFound } from "next/navigation";
import { loadIssue, loadIssuesContext } from "@/components/issues/data";

type Params = Promise<{ owner: string; repo: string; number: string }>;

/** Loads the issue first (cached for the page), so a missing number is a real 404 before loading.tsx streams. */
export default async function Layout({ params, children }: { params: Params; children: React.ReactNode }) {
  const { owner, repo, number } = await params;
  if (!/^[1-9]\d{0,9}$/.test(number) || Number(number) > 2_147_483_647) notFound();
  await loadIssue(await loadIssuesContext(owner, repo), Number(number));
  return children;
}
