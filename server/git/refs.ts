/**
 * Ref and branch name validation, the rules of `git check-ref-format` (git-check-ref-format(1)):
 * no component starting with `.` or ending with `.lock`; no `..`, `@{`, control characters,
 * space, `~ ^ : ? * [ \`; not ending with `/` or `.`; not `@`; no empty component (`//`).
 * Branch names additionally must not start with `-` (git-check-ref-format --branch).
 */
export function isValidRefName(name: string): boolean {
  if (!name || name.length > 255 || name === "@") return false;
  // eslint-disable-next-line no-control-regex -- git-check-ref-format(1) rule 4: no ASCII control characters, space, ~ ^ : ? * [ or \
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  if (name.includes("..") || name.includes("@{") || name.includes("//")) return false;
  if (name.startsWith("/") || name.endsWith("/") || name.endsWith(".")) return false;
  return name.split("/").every((c) => c.length > 0 && !c.startsWith(".") && !c.endsWith(".lock"));
}

/** A valid short branch name (the part after refs/heads/). */
export function isValidBranchName(name: string): boolean {
  return !name.startsWith("-") && name !== "HEAD" && isValidRefName(name);
}

/** Message for an invalid branch name, or null. */
export function branchNameProblem(name: string): string | null {
  return isValidBranchName(name) ? null : `"${name}" is not a valid branch name (git check-ref-format --branch)`;
}

/** A valid short tag name (the part after refs/tags/): check-ref-format rules, no leading `-`, not `HEAD`. */
export function isValidTagName(name: string): boolean {
  return !name.startsWith("-") && name !== "HEAD" && isValidRefName(name);
}

/**
 * Why a push may not create or update `ref` (a full name such as `refs/heads/main`), or null
 * when it may (docs/git-http.md "Refused pushes: ref names and push protection
 * (pre-receive)"). svc serves branches and tags only, so a push may write
 * `refs/heads/<branch>` (isValidBranchName: check-ref-format --branch, no leading `-`, not
 * `HEAD`) and `refs/tags/<tag>` (isValidTagName). `refs/pull/*` belongs to pull requests, and
 * any other namespace (refs/notes, refs/remotes, refs/changes, …) could not be browsed.
 * `isDelete`: deleting is allowed for every ref except `refs/pull/*`, so a badly named ref already
 * in a repository (one copied in with it, say) can be removed. The message names the ref and the rule.
 */
export function pushRefProblem(ref: string, isDelete: boolean): string | null {
  const shown = JSON.stringify(ref);
  if (ref.startsWith("refs/pull/")) return `${shown}: refs/pull/ is reserved for pull requests (svc writes these refs itself)`;
  if (isDelete) return null;
  if (ref.startsWith("refs/heads/")) {
    const name = ref.slice("refs/heads/".length);
    if (name.startsWith("-")) return `${shown}: a branch name cannot start with "-"`;
    if (name === "HEAD") return `${shown}: "HEAD" cannot be a branch name`;
    return isValidBranchName(name)
      ? null
      : `${shown}: not a valid branch name (git check-ref-format --branch: no "..", "@{", spaces, control characters, ~ ^ : ? * [ \\, no component starting with "." or ending with ".lock", not ending with "/" or ".")`;
  }
  if (ref.startsWith("refs/tags/")) {
    const name = ref.slice("refs/tags/".length);
    if (name.startsWith("-")) return `${shown}: a tag name cannot start with "-"`;
    return isValidTagName(name) ? null : `${shown}: not a valid tag name (git check-ref-format rules)`;
  }
  return `${shown}: svc accepts only branches (refs/heads/…) and tags (refs/tags/…)`;
}
