/**
 * An administrator's password reset (`svc user set-password`, docs/security.md "Lost password or
 * second factor"): the operator of the server, who can already write its database, gives an
 * account a new password without knowing the old one (Gitea: `gitea admin user change-password`).
 */
import type { Db } from "@/server/db";
import { inTransaction } from "@/server/db/transaction";
import { findSignInAccount } from "./sign-in-account";
import { hashNewPassword } from "./sign-up";
import { revokeAllSessions } from "./sessions";
import { clearAccountSignInLimit } from "./sign-in-limits";

/** What `setPassword` did: the account and how many of its sessions it ended. */
export interface SetPasswordResult {
  userId: string;
  username: string;
  /** Sessions ended (browser sessions and the service tokens that are their JWTs). */
  sessionsEnded: number;
}

/**
 * Sets the password of the account `username` (case-insensitive) to `password` and ends all of
 * its sessions, in one transaction: whoever held the old password, or a session, is signed out;
 * then clears the account-wide sign-in limit (sign-in-limits.ts `clearAccountSignInLimit`).
 * The password follows sign-up's rule and hashing (sign-up.ts `hashNewPassword`: 8–1024
 * characters, argon2id). An account that signed in only through GitHub or OpenID Connect gets a
 * password besides. Two-factor authentication is left as it is (remove-two-factor.ts removes it);
 * personal access tokens are left too (revoked with `svc token`, or by the user).
 * Errors: BAD_REQUEST for a password outside the rule, or an organization or bot account (they
 * never sign in); NOT_FOUND when no account has that name.
 */
export async function setPassword(db: Db, username: string, password: string): Promise<SetPasswordResult> {
  const user = await findSignInAccount(db, username);
  // hashed outside the transaction: argon2id takes tens of milliseconds by design
  const passwordHash = await hashNewPassword(password);
  const ended = await inTransaction(db, async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash }, select: { id: true } });
    return revokeAllSessions(tx, user.id);
  });
  await clearAccountSignInLimit(user.username);
  return { userId: user.id, username: user.username, sessionsEnded: ended.revoked };
}
