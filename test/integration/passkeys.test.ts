/**
 * Passkeys (docs/security.md "Passkeys") through the real router and services, with a software
 * authenticator (passkey-authenticator.ts): registration and management, the challenge lifecycle
 * (single use, expiry, purpose and user bound), passwordless sign-in (user verification, counter)
 * and the second step of a pending sign-in read from the session cookie.
 */
import { randomInt } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encode } from "next-auth/jwt";
import { getDb } from "@/server/db";
import { getAuthSecret } from "@/server/config";
import { contextFor } from "@/server/api/trpc";
import { createCaller } from "@/server/api/root";
import { relyingParty } from "@/server/services/passkeys/ceremony";
import { LIMITS } from "@/server/rate-limit";
import { signInWithPasskey } from "@/server/services/passkeys/sign-in-with-passkey";
import { startSession } from "@/server/services/users/sessions";
import { sessionUser } from "@/server/services/users/sessions";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { SoftAuthenticator } from "./passkey-authenticator";

const address = () => `10.${randomInt(250)}.${randomInt(250)}.${1 + randomInt(250)}`;

/** `user` with a registered passkey: its authenticator, caller and passkey id. */
async function withPasskey(user: Profile, name = "laptop") {
  const me = await callerFor(actorOf(user));
  const options = await me.users.passkeys.registrationOptions();
  const auth = new SoftAuthenticator(relyingParty());
  const passkey = await me.users.passkeys.register({ name, response: auth.register(options.challenge, { userHandle: options.user.id }) });
  return { me, auth, passkey };
}

async function twoFactorFlag(userId: string) {
  return (await (await getDb()).user.findUniqueOrThrow({ where: { id: userId } })).twoFactorEnabled;
}

describe("passkey registration and management", () => {
  it("registers several, lists, renames, deletes; the two-factor flag follows", async () => {
    const user = await makeUser("pk");
    expect(await twoFactorFlag(user.id)).toBe(false);
    const { me, auth, passkey } = await withPasskey(user);
    expect(passkey).toMatchObject({ name: "laptop", lastUsedAt: null, deviceType: "singleDevice" });
    expect(await twoFactorFlag(user.id)).toBe(true);
    const options = await me.users.passkeys.registrationOptions();
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([auth.id]);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "preferred", userVerification: "preferred" });
    expect(options.rp.id).toBe(relyingParty().rpID);
    const second = new SoftAuthenticator(relyingParty());
    await me.users.passkeys.register({ name: "key", response: second.register(options.challenge) });
    expect((await me.users.passkeys.list()).map((p) => p.name)).toEqual(["laptop", "key"]);
    expect(await me.users.passkeys.rename({ id: passkey.id, name: "  work laptop " })).toMatchObject({ name: "work laptop" });
    const [a, b] = await me.users.passkeys.list();
    expect(await me.users.passkeys.delete({ id: a!.id })).toEqual({ deleted: true, twoFactorEnabled: true });
    expect(await me.users.passkeys.delete({ id: b!.id })).toEqual({ deleted: true, twoFactorEnabled: false });
    expect(await twoFactorFlag(user.id)).toBe(false);
  });

  it("another user's passkey is NOT_FOUND; personal access tokens are refused", async () => {
    const { passkey } = await withPasskey(await makeUser("own"));
    const other = await callerFor(actorOf(await makeUser("oth")));
    await expect(other.users.passkeys.rename({ id: passkey.id, name: "x" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(other.users.passkeys.delete({ id: passkey.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await other.users.passkeys.list()).toEqual([]);
    const pat = await callerFor(actorOf(await makeUser("pat"), ["user:read", "user:write"]));
    await expect(pat.users.passkeys.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(pat.users.passkeys.registrationOptions()).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("a registration challenge is single use, expires, and belongs to its user; a credential registers once", async () => {
    const user = await makeUser("ch");
    const me = await callerFor(actorOf(user));
    const options = await me.users.passkeys.registrationOptions();
    const auth = new SoftAuthenticator(relyingParty());
    const response = auth.register(options.challenge);
    const thief = await callerFor(actorOf(await makeUser("thief")));
    await expect(thief.users.passkeys.register({ name: "x", response })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await me.users.passkeys.register({ name: "once", response });
    await expect(me.users.passkeys.register({ name: "twice", response })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("expired or was already used"),
    });
    // the same authenticator again, with a fresh challenge: CONFLICT
    const again = await me.users.passkeys.registrationOptions();
    await expect(me.users.passkeys.register({ name: "dup", response: auth.register(again.challenge) })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    // expiry
    const late = await me.users.passkeys.registrationOptions();
    const db = await getDb();
    await db.authChallenge.updateMany({ where: { challenge: late.challenge }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const fresh = new SoftAuthenticator(relyingParty());
    await expect(me.users.passkeys.register({ name: "late", response: fresh.register(late.challenge) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    // a wrong origin does not verify (and used up its challenge)
    const wrong = await me.users.passkeys.registrationOptions();
    await expect(
      me.users.passkeys.register({ name: "evil", response: fresh.register(wrong.challenge, { origin: "https://evil.example" }) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("could not be verified") });
    expect(await db.authChallenge.count({ where: { challenge: wrong.challenge } })).toBe(0);
    expect((await me.users.passkeys.list()).map((p) => p.name)).toEqual(["once"]);
  });
});

describe("passwordless sign-in", () => {
  it("signs in with a discoverable passkey once per challenge, requires user verification and a growing counter", async () => {
    const user = await makeUser("pwl");
    const { auth, me } = await withPasskey(user);
    const db = await getDb();
    const anon = await callerFor(null);
    const options = await anon.users.passkeys.signInOptions();
    expect(options).toMatchObject({ userVerification: "required", allowCredentials: [] });
    const response = JSON.stringify(auth.assert(options.challenge));
    expect(await signInWithPasskey(db, response, address())).toMatchObject({ id: user.id });
    await expect(signInWithPasskey(db, response, address())).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await me.users.passkeys.list())[0]!.lastUsedAt).not.toBeNull();

    const noUv = await anon.users.passkeys.signInOptions();
    await expect(signInWithPasskey(db, JSON.stringify(auth.assert(noUv.challenge, { uv: false })), address())).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const cloned = await anon.users.passkeys.signInOptions();
    await expect(signInWithPasskey(db, JSON.stringify(auth.assert(cloned.challenge, { counter: 1 })), address())).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("counter"),
    });
    expect(await signInWithPasskey(db, "not json", address())).toBeNull();
    expect(await signInWithPasskey(db, JSON.stringify({ id: "x" }), address())).toBeNull();
  });

  it("a sign-in challenge cannot answer a registration, nor a second-factor challenge a passwordless sign-in", async () => {
    const user = await makeUser("purp");
    const { auth, me } = await withPasskey(user);
    const db = await getDb();
    const signIn = await (await callerFor(null)).users.passkeys.signInOptions();
    await expect(
      me.users.passkeys.register({ name: "x", response: new SoftAuthenticator(relyingParty()).register(signIn.challenge) }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const { passkeySecondFactorOptions } = await import("@/server/services/passkeys/authenticate-passkey");
    const second = await passkeySecondFactorOptions(db, user.id);
    await expect(signInWithPasskey(db, JSON.stringify(auth.assert(second.challenge)), address())).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });
});

describe("passkey sign-in limits", () => {
  it("failed assertions count toward the per-address sign-in limit; a success gives its point back", async () => {
    const db = await getDb();
    const user = await makeUser("lim");
    const { auth } = await withPasskey(user);
    const ip = address();
    const anon = await callerFor(null);
    const good = await anon.users.passkeys.signInOptions();
    expect(await signInWithPasskey(db, JSON.stringify(auth.assert(good.challenge)), ip)).toMatchObject({ id: user.id });
    const bogus = JSON.stringify(auth.assert("bm8tc3VjaC1jaGFsbGVuZ2U"));
    for (let i = 0; i < LIMITS.signInAddressFailures.points; i++)
      await expect(signInWithPasskey(db, bogus, ip)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(signInWithPasskey(db, bogus, ip)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    // another address is not held
    const other = await anon.users.passkeys.signInOptions();
    expect(await signInWithPasskey(db, JSON.stringify(auth.assert(other.challenge)), address())).toMatchObject({ id: user.id });
  });
});

describe("passkey as the second factor", () => {
  /** A tRPC caller carrying `userId`'s session cookie for session `sid`, as the browser on /signin/two-factor. */
  async function cookieCaller(userId: string, sid: string) {
    const jwt = await encode({ token: { sub: userId, sid }, secret: getAuthSecret() });
    const headers = new Headers({ cookie: `next-auth.session-token=${jwt}`, "x-forwarded-for": address() });
    return createCaller(await contextFor(null, headers));
  }

  it("completes the pending session with the user's own passkey, never another user's", async () => {
    const db = await getDb();
    const user = await makeUser("tfa");
    const { auth } = await withPasskey(user);
    const other = await makeUser("tfb");
    const { auth: otherAuth } = await withPasskey(other);
    const sid = await startSession(db, user.id, "test");
    expect(await sessionUser(db, sid, user.id)).toBeNull(); // pending: signs nobody in
    const caller = await cookieCaller(user.id, sid);
    const options = await caller.users.passkeys.secondFactorOptions();
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([auth.id]);
    await expect(caller.users.passkeys.secondFactorVerify({ response: otherAuth.assert(options.challenge) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    const next = await caller.users.passkeys.secondFactorOptions();
    expect(await caller.users.passkeys.secondFactorVerify({ response: auth.assert(next.challenge, { uv: false }) })).toEqual({
      signedIn: true,
    });
    expect(await sessionUser(db, sid, user.id)).toMatchObject({ id: user.id });
    // complete now: nothing is pending any more
    await expect(caller.users.passkeys.secondFactorOptions()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("without a pending sign-in cookie the second step is UNAUTHORIZED", async () => {
    const anon = await callerFor(null);
    await expect(anon.users.passkeys.secondFactorOptions()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});
