/**
 * CODEOWNERS (GitHub's syntax; docs/pulls.md "Merge requirements"): pure parsing and matching.
 * A file holds lines `<pattern> <owner> …`; `#` starts a comment; the LAST matching line wins
 * (a line without owners makes the path unowned). Owners are `@user` and `@org/team-slug` (a team
 * of the organization owning the repository; docs/orgs.md "Teams"), compared case-insensitively
 * and kept as `user` / `org/team-slug`; email owners are skipped.
 *
 * Patterns follow gitignore as GitHub applies them:
 *   - a pattern with a `/` at the start or in the middle is anchored at the repository root,
 *     otherwise it matches at any depth (`*.js`, `apps/`);
 *   - a trailing `/` names a directory: everything below it;
 *   - `*` matches within a path segment, `**` across segments, `?` one character;
 *   - a pattern whose last segment has no wildcard also matches everything below it (a
 *     directory named like that: `/build/logs`), while `docs/*` matches `docs/a.md` but not
 *     `docs/x/b.md` (GitHub's documented example).
 */

/** Where svc looks for the file, first found wins (GitHub's order). */
export const CODEOWNERS_PATHS = [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"] as const;

/** One rule of a CODEOWNERS file. */
export interface CodeOwnersRule {
  pattern: string;
  /** Usernames and `org/team-slug`s without `@`, lower-cased. */
  owners: string[];
  regex: RegExp;
}

const glob = (s: string) =>
  s
    .split(/(\*\*|\*|\?)/)
    .map((part) => (part === "**" ? ".*" : part === "*" ? "[^/]*" : part === "?" ? "[^/]" : part.replace(/[.+^${}()|[\]\\]/g, "\\$&")))
    .join("");

/** The regular expression of a CODEOWNERS pattern (module comment), matched against a path without a leading `/`. */
export function codeOwnersRegExp(pattern: string): RegExp {
  let p = pattern;
  const dir = p.endsWith("/");
  if (dir) p = p.replace(/\/+$/, "");
  const anchored = p.startsWith("/") || p.includes("/");
  p = p.replace(/^\/+/, "");
  const last = p.split("/").pop() ?? "";
  const below = dir || !/[*?]/.test(last);
  return new RegExp(`^${anchored ? "" : "(?:.*/)?"}${glob(p)}${below ? "(?:/.*)?" : ""}$`);
}

/** Parses a CODEOWNERS file (bounded by the caller); lines it cannot use are skipped. */
export function parseCodeOwners(text: string): CodeOwnersRule[] {
  const rules: CodeOwnersRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) continue;
    const [pattern, ...rest] = line.split(/\s+/);
    if (pattern.startsWith("!") || pattern.includes("[")) continue; // not supported by GitHub either
    const owners = rest.filter((o) => /^@[A-Za-z0-9-]+(?:\/[A-Za-z0-9_.-]+)?$/.test(o)).map((o) => o.slice(1).toLowerCase());
    rules.push({ pattern, owners, regex: codeOwnersRegExp(pattern) });
  }
  return rules;
}

/** True for a team owner (`org/team-slug`), false for a user owner. */
export function isTeamOwner(owner: string): boolean {
  return owner.includes("/");
}

/** The owners (lower-cased usernames and `org/team-slug`s) of `path` (no leading `/`): the last matching rule's; [] when none. */
export function ownersOf(rules: CodeOwnersRule[], path: string): string[] {
  for (let i = rules.length - 1; i >= 0; i--) if (rules[i].regex.test(path)) return rules[i].owners;
  return [];
}

/**
 * The paths among `paths` whose owners have not approved: each owned path needs an approval by
 * one of its owners (`approvers`: lower-cased usernames whose latest verdict approves, and the
 * `org/team-slug`s of the teams those approvers are on — a team owner is satisfied by any member's
 * approval). Returns
 * the unapproved paths with their owners, in `paths` order.
 */
export function unapprovedOwnedPaths(
  rules: CodeOwnersRule[],
  paths: string[],
  approvers: Set<string>,
): { path: string; owners: string[] }[] {
  const out: { path: string; owners: string[] }[] = [];
  for (const path of paths) {
    const owners = ownersOf(rules, path);
    if (owners.length && !owners.some((o) => approvers.has(o))) out.push({ path, owners });
  }
  return out;
}
