/**
 * Two-factor authentication (docs/security.md "Two-factor authentication"): users.twoFactor
 * setup / confirm / disable / regenerateRecoveryCodes / status and the sign-in second step
 * (verifySignIn with the pending session in the cookie), through the real router (createCaller).
 * TOTP codes are computed here with otplib. Each code is accepted once, so a test that needs
 * several codes within one 30-second step clears User.totpLastStep (as time passing would).
 */
import { describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { generate } from "otplib";
import { getDb } from "@/server/db";
import { getAuthSecret, getConfig } from "@/server/config";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { SCOPES } from "@/server/auth/scopes";
import { createCaller } from "@/server/api/root";
import { contextFor } from "@/server/api/trpc";
import { startSession } from "@/server/services/users/sessions";
import { openTotpSecret } from "@/server/services/two-factor/secret";
import { PENDING_SECOND_FACTOR_MS } from "@/server/services/two-factor/pending-session";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";

/** A session actor backed by a real (complete) UserSession row. */
async function sessionActor(user: Profile): Promise<Actor> {
  const sessionId = await startSession(await getDb(), user.id, "test", { secondFactorDone: true });
  return { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES, sessionId };
}

/** The TOTP code for `secret` at now + `offsetSteps` × 30 s. */
function code(secret: string, offsetSteps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });
}

/** As if the last accepted code's step was long ago: the next right code is accepted. */
async function forgetLastStep(userId: string): Promise<void> {
  await (await getDb()).user.update({ where: { id: userId }, data: { totpLastStep: null } });
}

/** A user with TOTP enabled: their caller, secret and recovery codes. */
async function userWithTotp(prefix = "tfa") {
  const user = await makeUser(prefix);
  const me = await callerFor(await sessionActor(user));
  const { secret } = await me.users.twoFactor.setup();
  const { recoveryCodes } = await me.users.twoFactor.confirm({ code: await code(secret) });
  await forgetLastStep(user.id);
  return { user, me, secret, recoveryCodes };
}

/** Signs `user` in with the first factor: a new session (pending when 2FA is on) and a caller holding its cookie. */
async function firstFactor(user: Profile, address = "203.0.113.7") {
  const sid = await startSession(await getDb(), user.id, "browser");
  const jwt = await encode({ token: { sub: user.id, name: user.username, sid }, secret: getAuthSecret() });
  const headers = new Headers({
    cookie: `next-auth.session-token=${jwt}`,
    origin: getConfig().publicUrl,
    "x-forwarded-for": address,
  });
  const caller = createCaller(await contextFor(undefined as unknown as null, headers).then((c) => ({ ...c, actor: undefined })));
  return { sid, headers, caller };
}

describe("users.twoFactor setup and confirm", () => {
  it("sets up a sealed secret with URI and QR code, enables it with a code, and returns ten recovery codes", async () => {
    const user = await makeUser("setup");
    const me = await callerFor(await sessionActor(user));
    expect(await me.users.twoFactor.status()).toMatchObject({ totp: false, enabled: false, recoveryCodesLeft: 0, passkeys: 0 });
    const first = await me.users.twoFactor.setup();
    const { secret, uri, qrSvg } = await me.users.twoFactor.setup(); // replaces the unconfirmed one
    expect(secret).not.toBe(first.secret);
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(uri).toBe(`otpauth://totp/svc:${user.username}?secret=${secret}&issuer=svc`);
    expect(qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const row = await (await getDb()).user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpSecret).not.toContain(secret); // sealed at rest
    expect(openTotpSecret(user.id, row.totpSecret)).toBe(secret);
    expect(openTotpSecret("someone-else", row.totpSecret)).toBeNull();
    expect(row.twoFactorEnabled).toBe(false);

    await expect(me.users.twoFactor.confirm({ code: await code(first.secret) })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const { recoveryCodes } = await me.users.twoFactor.confirm({ code: await code(secret) });
    expect(recoveryCodes).toHaveLength(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(new Set(recoveryCodes).size).toBe(10);
    const hashes = await (await getDb()).recoveryCode.findMany({ where: { userId: user.id } });
    expect(hashes.map((h) => h.codeHash).some((h) => recoveryCodes.includes(h))).toBe(false);
    expect(await me.users.twoFactor.status()).toMatchObject({ totp: true, enabled: true, recoveryCodesLeft: 10 });
    await expect(me.users.twoFactor.setup()).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(me.users.twoFactor.confirm({ code: await code(secret, 1) })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("is refused to personal access tokens and anonymous callers", async () => {
    const user = await makeUser("pat");
    const pat = await callerFor(actorOf(user, SCOPES));
    await expect(pat.users.twoFactor.setup()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(pat.users.twoFactor.status()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await callerFor(null)).users.twoFactor.setup()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("users.twoFactor disable and regenerate", () => {
  it("regenerates recovery codes with a TOTP code: the old ones stop working", async () => {
    const { user, me, secret, recoveryCodes } = await userWithTotp("regen");
    await expect(
      me.users.twoFactor.regenerateRecoveryCodes({ code: "000000" === (await code(secret)) ? "111111" : "000000" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const { recoveryCodes: fresh } = await me.users.twoFactor.regenerateRecoveryCodes({ code: await code(secret) });
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => recoveryCodes.includes(c))).toBe(false);
    const { caller } = await firstFactor(user);
    await expect(caller.users.twoFactor.verifySignIn({ code: recoveryCodes[0]! })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.users.twoFactor.verifySignIn({ code: fresh[0]! })).toEqual({ signedIn: true, factor: "recovery" });
  });

  it("disables with a code or the password, clearing the secret and recovery codes", async () => {
    const a = await userWithTotp("disa");
    await expect(a.me.users.twoFactor.disable({ password: "wrong-password" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(a.me.users.twoFactor.disable({} as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await a.me.users.twoFactor.disable({ password: "password123" })).toEqual({ disabled: true, twoFactorEnabled: false });
    const row = await (await getDb()).user.findUniqueOrThrow({ where: { id: a.user.id } });
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null, twoFactorEnabled: false });
    expect(await (await getDb()).recoveryCode.count({ where: { userId: a.user.id } })).toBe(0);
    await expect(a.me.users.twoFactor.disable({ password: "password123" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    // the next sign-in is not pending
    expect(await resolveActor({ headers: (await firstFactor(a.user)).headers })).toMatchObject({ user: { id: a.user.id } });

    const b = await userWithTotp("disb");
    expect(await b.me.users.twoFactor.disable({ code: await code(b.secret) })).toMatchObject({ disabled: true });
    expect(await b.me.users.twoFactor.status()).toMatchObject({ totp: false, enabled: false, recoveryCodesLeft: 0 });
  });
});

describe("the sign-in second step", () => {
  it("keeps the session pending (signed out) until a right TOTP code completes it; a replayed code fails", async () => {
    const { user, secret } = await userWithTotp("signin");
    const { caller, headers, sid } = await firstFactor(user);
    expect(await resolveActor({ headers })).toBeNull();
    const c = await code(secret);
    expect(await caller.users.twoFactor.verifySignIn({ code: c })).toEqual({ signedIn: true, factor: "totp" });
    expect(await resolveActor({ headers })).toMatchObject({ via: "session", sessionId: sid, user: { id: user.id } });
    await expect(caller.users.twoFactor.verifySignIn({ code: c })).rejects.toMatchObject({ code: "UNAUTHORIZED" }); // nothing pending

    // the same code in another sign-in within its window: replay refused
    const other = await firstFactor(user);
    await expect(other.caller.users.twoFactor.verifySignIn({ code: c })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await resolveActor({ headers: other.headers })).toBeNull();
    // the next step's code (clock drift tolerance) works once
    expect(await other.caller.users.twoFactor.verifySignIn({ code: await code(secret, 1) })).toMatchObject({ signedIn: true });
  });

  it("accepts each recovery code once", async () => {
    const { user, recoveryCodes, me } = await userWithTotp("recovery");
    const first = await firstFactor(user);
    expect(await first.caller.users.twoFactor.verifySignIn({ code: recoveryCodes[3]!.toUpperCase() })).toEqual({
      signedIn: true,
      factor: "recovery",
    });
    const second = await firstFactor(user);
    await expect(second.caller.users.twoFactor.verifySignIn({ code: recoveryCodes[3]! })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await me.users.twoFactor.status()).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it("counts wrong codes toward the sign-in limits: TOO_MANY_REQUESTS after 10, even for the right code", async () => {
    const { user, secret } = await userWithTotp("brute");
    const { caller } = await firstFactor(user, "198.51.100.23");
    const right = await code(secret);
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 10; i++)
      await expect(caller.users.twoFactor.verifySignIn({ code: wrong })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.users.twoFactor.verifySignIn({ code: right })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // a right password does not reset the code count (its own limit key)
    const again = await firstFactor(user, "198.51.100.23");
    await expect(again.caller.users.twoFactor.verifySignIn({ code: right })).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });

  it("expires a pending session after 10 minutes", async () => {
    const { user, secret } = await userWithTotp("expire");
    const { caller, headers, sid } = await firstFactor(user);
    await (
      await getDb()
    ).userSession.update({ where: { id: sid }, data: { createdAt: new Date(Date.now() - PENDING_SECOND_FACTOR_MS - 1000) } });
    await expect(caller.users.twoFactor.verifySignIn({ code: await code(secret) })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await resolveActor({ headers })).toBeNull();
  });

  it("refuses without a session cookie and across origins", async () => {
    const anon = await callerFor(null);
    await expect(anon.users.twoFactor.verifySignIn({ code: "123456" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const { user } = await userWithTotp("csrf");
    const { headers } = await firstFactor(user);
    headers.set("origin", "https://evil.example");
    const evil = createCaller(await contextFor(null, headers).then((c) => ({ ...c, actor: undefined })));
    await expect(evil.users.twoFactor.verifySignIn({ code: "123456" })).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
