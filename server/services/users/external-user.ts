/**
 * Accounts created for an external identity (GitHub OAuth, OpenID Connect): the username derived
 * from the provider's login, made unique, and the email taken only when it is free. One function
 * for every provider, so they agree (docs/security.md "Single sign-on (OpenID Connect)").
 */
import type { Db } from "@/server/db";
import type { Prisma } from "@/server/db";
import { usernameProblem } from "@/lib/names";
import { retryOnUniqueViolation } from "@/server/db/unique-retry";
import { profileSelect, type Profile } from "./profile";
import { emailTaken } from "./email-taken";

/**
 * The username a login suggests: for an email-like login ("alice@corp.example") its local part;
 * characters other than letters, digits and "-" become "-", runs of "-" collapse, leading and
 * trailing "-" go, at most 39 characters; "user" when nothing is left. Never checks uniqueness.
 * Examples: "Alice Smith" → "Alice-Smith", "j.doe" → "j-doe", "__" → "user".
 */
export function usernameBase(login: string): string {
  const local = login.includes("@") && !login.startsWith("@") ? login.slice(0, login.indexOf("@")) : login;
  const cleaned = local
    .replace(/[^A-Za-z0-9-]+/g, "-")
    .replace(/-{2,}/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 39)
    .replace(/-+$/, "");
  return cleaned || "user";
}

/**
 * The `n`th candidate username for `base` (n = 1: the base itself; n ≥ 2: "<base, ≤ 30 chars>-<n>").
 */
export function usernameCandidate(base: string, n: number): string {
  return n === 1 ? base : `${base.slice(0, 30).replace(/-+$/, "")}-${n}`;
}

/**
 * A free username for `login`: usernameBase, or base-2, base-3, … when taken or reserved
 * (lib/names.ts usernameProblem). After 50 tries a random 6-digit suffix.
 */
export async function freeUsername(db: Db, login: string): Promise<string> {
  const base = usernameBase(login);
  for (let n = 1; n <= 50; n++) {
    const candidate = usernameCandidate(base, n);
    if (usernameProblem(candidate)) continue;
    if (!(await db.user.findUnique({ where: { usernameLower: candidate.toLowerCase() }, select: { id: true } }))) return candidate;
  }
  return usernameCandidate(base, 100_000 + Math.floor(Math.random() * 900_000));
}

/**
 * Creates the account for a new external identity: username from `login` (freeUsername), `name`,
 * and `email` (lower-cased) only when no account uses it — an external identity never takes over
 * or links to an existing account by its email. `data` adds provider columns (e.g. githubId) or
 * nested creates (the ExternalIdentity row), written in the same insert. A concurrent sign-up
 * taking the same username or email is retried (3 attempts).
 */
export async function createExternalUser(
  db: Db,
  identity: { login: string; name?: string | null; email?: string | null },
  data: Omit<Prisma.UserCreateInput, "username" | "usernameLower" | "name" | "email"> = {},
): Promise<Profile> {
  return retryOnUniqueViolation(async () => {
    const username = await freeUsername(db, identity.login);
    const email = identity.email?.trim().toLowerCase() || null;
    const emailFree = email !== null && !(await emailTaken(db, email));
    return db.user.create({
      data: {
        ...data,
        username,
        usernameLower: username.toLowerCase(),
        name: identity.name?.trim().slice(0, 255) || null,
        email: emailFree ? email : null,
      },
      select: profileSelect,
    });
  });
}
