/**
 * Default merge commit messages per strategy (docs/pulls.md "Merge strategies"), as the merge box
 * prefills them and as the server uses them when none is given: merge
 * `Merge pull request #N from <owner>/<source>` + blank line + title (GitHub's wording); squash
 * `<title> (#N)` + blank line + the commit list (`* subject` each, oldest first). Rebase keeps each
 * commit's own message (none to edit).
 */
export type MergeStrategy = "merge" | "squash" | "rebase";

export function defaultMergeMessage(
  strategy: MergeStrategy,
  pr: { number: number; title: string; sourceBranch: string; sourceOwner: string; commits: { message: string }[] },
): string {
  if (strategy === "merge") return `Merge pull request #${pr.number} from ${pr.sourceOwner}/${pr.sourceBranch}\n\n${pr.title}`;
  if (strategy === "squash") {
    const list = pr.commits.map((c) => `* ${c.message.split("\n")[0]}`).join("\n");
    return `${pr.title} (#${pr.number})${list ? `\n\n${list}` : ""}`;
  }
  return "";
}

/**
 * The commits as ai.summarizeForSquash takes them: `author` as "Name <email>", the
 * form its co-authors and Co-authored-by trailers use (the same the server's squash writes, so
 * the trailers are not doubled).
 */
export function squashCommitsInput(
  commits: readonly { sha: string; message: string; author: string; authorEmail: string }[],
): { sha: string; message: string; author: string }[] {
  return commits.map((c) => ({ sha: c.sha, message: c.message, author: c.authorEmail ? `${c.author} <${c.authorEmail}>` : c.author }));
}
