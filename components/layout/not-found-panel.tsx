"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { button } from "@/components/ui/styles";

/**
 * The body of a 404 inside a repository: what was not found — an issue for
 * `/<owner>/<repo>/issues/<number>`, else a branch, file or page — and a way back to the
 * repository's home or its issues. Read from the URL: not-found files get no params.
 */
export function RepoNotFound() {
  const [owner = "", repo = "", section, number] = (usePathname() ?? "").split("/").filter(Boolean);
  const kind = section === "issues" && number !== undefined && /^\d+$/.test(number) ? "issue" : "page";
  const base = `/${owner}/${repo}`;
  return (
    <div className="mx-auto max-w-lg px-4 py-20 text-center" data-testid="not-found">
      <p className="font-mono text-5xl font-bold text-subtle-foreground">404</p>
      <h1 className="mt-4 text-2xl font-semibold">{kind === "issue" ? "Issue not found" : "This page could not be found"}</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        {kind === "issue"
          ? "There is no issue with this number in this repository."
          : "The branch, tag, file or page does not exist in this repository."}
      </p>
      <Link href={kind === "issue" ? `${base}/issues` : base} className={`${button.secondary} mt-6`} data-testid="not-found-back">
        {kind === "issue" ? "Back to the issues" : "Back to the repository"}
      </Link>
    </div>
  );
}
