/**
 * An operator's way back into an account (docs/security.md "Lost password or second factor"):
 * users/set-password.ts `setPassword` and two-factor/remove-two-factor.ts `removeTwoFactor`, the
 * services behind `svc user set-password` and `svc user reset-two-factor` (the CLI itself:
 * cli.test.ts).
 */
import { describe, expect, it } from "vitest";
import { generate } from "otplib";
import { getDb } from "@/server/db";
import { authenticate } from "@/server/services/users/sign-in";
import { startSession } from "@/server/services/users/sessions";
import { setPassword } from "@/server/services/users/set-password";
import { removeTwoFactor } from "@/server/services/two-factor/remove-two-factor";
import { refreshTwoFactorFlag } from "@/server/services/two-factor/two-factor-flag";
import { takeSignInAttempt } from "@/server/services/users/sign-in-limits";
import { LIMITS, take } from "@/server/rate-limit";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";

const sessionsOf = async (userId: string) => (await getDb()).userSession.count({ where: { userId } });

/** Two sessions of `user`: one complete, one waiting for its second factor. */
async function twoSessions(user: Profile): Promise<void> {
  const db = await getDb();
  await startSession(db, user.id, "laptop", { secondFactorDone: true });
  await startSession(db, user.id, "phone");
}

/** TOTP (with its ten recovery codes) and two passkeys for `user`, as the web sets them up. */
async function everySecondFactor(user: Profile): Promise<void> {
  const me = await callerFor(actorOf(user));
  const { secret } = await me.users.twoFactor.setup();
  await me.users.twoFactor.confirm({ code: await generate({ secret }) });
  const db = await getDb();
  for (const name of ["YubiKey", "MacBook"]) {
    await db.passkey.create({
      data: { userId: user.id, name, credentialId: `${name}-${user.id}`, publicKey: "cHVibGlj", deviceType: "singleDevice" },
    });
    await new Promise((r) => setTimeout(r, 5)); // distinct createdAt: the result lists them oldest first
  }
  expect(await refreshTwoFactorFlag(db, user.id)).toBe(true);
}

describe("setPassword (svc user set-password)", () => {
  it("sets a new password under sign-up's rule and ends every session of the user", async () => {
    const user = await makeUser("lostpw");
    const other = await makeUser("bystander");
    await twoSessions(user);
    await twoSessions(other);
    const db = await getDb();

    // a password outside the rule changes nothing
    await expect(setPassword(db, user.username, "short")).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "password must be at least 8 characters",
    });
    await expect(setPassword(db, user.username, "x".repeat(1025))).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await sessionsOf(user.id)).toBe(2);
    expect(await authenticate(db, user.username, "password123")).toMatchObject({ id: user.id });

    // the username is matched case-insensitively
    expect(await setPassword(db, user.username.toUpperCase(), "a brand new secret")).toEqual({
      userId: user.id,
      username: user.username,
      sessionsEnded: 2,
    });
    expect(await sessionsOf(user.id)).toBe(0);
    expect(await sessionsOf(other.id)).toBe(2);
    expect(await authenticate(db, user.username, "password123")).toBeNull();
    expect(await authenticate(db, user.username, "a brand new secret")).toMatchObject({ id: user.id });
  });

  it("refuses an unknown user and an organization", async () => {
    const db = await getDb();
    await expect(setPassword(db, "no-such-user-here", "long enough")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'no user named "no-such-user-here"',
    });
    const owner = await makeUser("orgowner");
    const name = `rec${Math.random().toString(36).slice(2, 8)}`;
    await (await callerFor(actorOf(owner))).orgs.create({ name });
    await expect(setPassword(db, name, "long enough")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await db.user.findUnique({ where: { usernameLower: name }, select: { passwordHash: true } }))?.passwordHash).toBeNull();
  });
});

describe("removeTwoFactor (svc user reset-two-factor)", () => {
  it("removes the TOTP secret, recovery codes and passkeys, turns the flag off and ends the sessions, in one go", async () => {
    const user = await makeUser("lost2fa");
    const other = await makeUser("kept2fa");
    await everySecondFactor(user);
    await everySecondFactor(other);
    await twoSessions(user);
    const db = await getDb();
    expect(await db.recoveryCode.count({ where: { userId: user.id } })).toBe(10);

    expect(await removeTwoFactor(db, user.username)).toEqual({
      userId: user.id,
      username: user.username,
      totpRemoved: true,
      recoveryCodesRemoved: 10,
      passkeysRemoved: ["YubiKey", "MacBook"],
      sessionsEnded: 2,
      twoFactorEnabled: false,
    });
    expect(
      await db.user.findUnique({ where: { id: user.id }, select: { totpSecret: true, totpEnabledAt: true, twoFactorEnabled: true } }),
    ).toEqual({
      totpSecret: null,
      totpEnabledAt: null,
      twoFactorEnabled: false,
    });
    expect(await db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.passkey.count({ where: { userId: user.id } })).toBe(0);
    expect(await sessionsOf(user.id)).toBe(0);
    // the password alone signs in now: a new session is not held for a second factor
    await startSession(db, user.id, "browser");
    expect(await db.userSession.findFirst({ where: { userId: user.id }, select: { secondFactorPending: true } })).toEqual({
      secondFactorPending: false,
    });
    // nobody else's factors are touched
    expect(await db.recoveryCode.count({ where: { userId: other.id } })).toBe(10);
    expect(await db.passkey.count({ where: { userId: other.id } })).toBe(2);
    expect((await db.user.findUnique({ where: { id: other.id }, select: { twoFactorEnabled: true } }))?.twoFactorEnabled).toBe(true);

    // again: nothing left to remove is not an error
    expect(await removeTwoFactor(db, user.username)).toMatchObject({
      totpRemoved: false,
      recoveryCodesRemoved: 0,
      passkeysRemoved: [],
      sessionsEnded: 1,
      twoFactorEnabled: false,
    });
  });

  it("refuses an unknown user", async () => {
    await expect(removeTwoFactor(await getDb(), "no-such-user-here")).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: 'no user named "no-such-user-here"',
    });
  });
});

describe("the account-wide sign-in limit after a recovery", () => {
  it("set-password and reset-two-factor clear it: the owner signs in from a new address at once", async () => {
    const user = await makeUser("lockedout");
    const db = await getDb();
    /** A guesser from many addresses uses up the account's points (level 3 of sign-in-limits.ts). */
    const lockOut = async () => {
      for (let i = 0; i < LIMITS.signInAccountFailures.points; i++) await take("signInAccountFailures", user.username.toLowerCase());
      await expect(takeSignInAttempt(user.username, `198.51.100.${++address}`)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    };
    let address = 0;
    await lockOut();
    await setPassword(db, user.username, "a brand new secret");
    await expect(takeSignInAttempt(user.username, `198.51.100.${++address}`)).resolves.toBeDefined();
    await lockOut();
    await removeTwoFactor(db, user.username);
    await expect(takeSignInAttempt(user.username, `198.51.100.${++address}`)).resolves.toBeDefined();
  });
});
