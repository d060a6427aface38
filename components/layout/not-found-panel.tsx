"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { button } from "@/components/ui/styles";

/**
 * The body of a 404 inside a repository: what was not found — an issue for
 * `/<owner>/<repo>/issues/<number>`, a pull request for `/pulls/<number>…`, else a branch, file
 * or page — and a way back to the repository's home, its issues or its pull requests. Read from
 * the URL: not-found files get no params.
 */
export function RepoNotFound() {
  const [owner = "", repo = "", section, number] = (usePathname() ?? "").split("/").filter(Boolean);
  const numbered = number !== undefined && /^\d+$/.test(number);
  const kind = section === "issues" && numbered ? "issue" : section === "pulls" && numbered ? "pull" : "page";
  const base = `/${owner}/${repo}`;
  const text = {
    issue: {
      title: "Issue not found",
      body: "There is no issue with this number in this repository.",
      back: "Back to the issues",
      href: `${base}/issues`,
    },
    pull: {
      title: "Pull request not found",
      body: "There is no pull request with this number in this repository.",
      back: "Back to the pull requests",
      href: `${base}/pulls`,
    },
    page: {
      title: "This page could not be found",
      body: "The branch, tag, file or page does not exist in this repository.",
      back: "Back to the repository",
      href: base,
    },
  }[kind];
  return (
    <div className="mx-auto max-w-lg px-4 py-20 text-center" data-testid="not-found">
      <p className="font-mono text-5xl font-bold text-subtle-foreground">404</p>
      <h1 className="mt-4 text-2xl font-semibold">{text.title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{text.body}</p>
      <Link href={text.href} className={`${button.secondary} mt-6`} data-testid="not-found-back">
        {text.back}
      </Link>
    </div>
  );
}
