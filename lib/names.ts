/**
 * Name rules for users and repositories (GitHub/Gitea conventions).
 * - Username: 1–39 characters, letters, digits and single hyphens, not starting or ending with a hyphen.
 * - Repository: 1–100 characters of letters, digits, `.`, `-`, `_`; not `.` or `..`, not ending
 *   in `.git`, not starting with `.` or `-`.
 * Reserved words cannot be usernames because they are top-level URL paths.
 */
export const RESERVED_USERNAMES = new Set([
  "api",
  "trpc",
  "settings",
  "new",
  "signin",
  "signup",
  "signout",
  "login",
  "logout",
  "dashboard",
  "_next",
  "static",
  "public",
  "admin",
  "assets",
  "favicon.ico",
  "robots.txt",
  "explore",
  "search",
  "inbox",
  "notifications",
  "repos",
  "user",
  "users",
  "help",
  "about",
  // organizations' pages (docs/orgs.md "Pages")
  "organizations",
  "orgs",
  // the List-Unsubscribe link of notification emails (docs/notifications-email.md)
  "unsubscribe",
  // svc's own bot accounts (services/pulls/ai-bot.ts)
  "svc-ai",
]);

const USERNAME_RE = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO_RE = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;

/** Null when valid, else a message naming the problem. */
export function usernameProblem(name: string): string | null {
  if (!USERNAME_RE.test(name)) return "username must be 1–39 letters, digits or single hyphens, not starting or ending with a hyphen";
  if (RESERVED_USERNAMES.has(name.toLowerCase())) return `username "${name}" is reserved`;
  return null;
}

/** Null when valid, else a message naming the problem. */
export function repoNameProblem(name: string): string | null {
  if (!REPO_RE.test(name)) return "repository name must be 1–100 letters, digits, '.', '-' or '_', not starting with '.' or '-'";
  if (name === "." || name === "..") return "repository name cannot be . or ..";
  if (/\.git$/i.test(name)) return "repository name cannot end in .git";
  if (/\.(atom|keys)$/i.test(name)) return "repository name cannot end in .atom or .keys";
  return null;
}
