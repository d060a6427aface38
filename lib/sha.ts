/**
 * Full git object ids, the one definition for the whole tree: 40 hex digits in SHA-1
 * repositories, 64 in SHA-256 ones (git-init(1) --object-format; gitformat-pack(5)), lower case as
 * git prints them. Abbreviated ids are never accepted: every id svc passes to git or stores has
 * been resolved by git first. Pure, for the server and components alike.
 */

/** The pattern of one full object id, without anchors or capture group, for composing larger regular expressions. */
export const SHA_PATTERN = "(?:[0-9a-f]{40}|[0-9a-f]{64})";

/** A whole string that is one full object id (SHA-1 or SHA-256). */
export const SHA_RE = new RegExp(`^${SHA_PATTERN}$`);

/** Whether `value` is a full object id (SHA-1 or SHA-256). */
export function isSha(value: unknown): value is string {
  return typeof value === "string" && SHA_RE.test(value);
}

/** The all-zero id git uses for "no object" in ref updates (a created or deleted ref), SHA-1 length. */
export const ZERO_SHA = "0000000000000000000000000000000000000000";

/** Whether `value` is git's all-zero "no object" id, in either length. */
export function isZeroSha(value: string): boolean {
  return /^0+$/.test(value);
}
