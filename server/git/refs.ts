/**
 * Ref and branch name validation, the rules of `git check-ref-format` (git-check-ref-format(1)):
 * no component starting with `.` or ending with `.lock`; no `..`, `@{`, control characters,
 * space, `~ ^ : ? * [ \`; not ending with `/` or `.`; not `@`; no empty component (`//`).
 * Branch names additionally must not start with `-` (git-check-ref-format --branch).
 */
export function isValidRefName(name: string): boolean {
  if (!name || name.length > 255 || name === "@") return false;
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
