import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { resolveOidcSignIn } from "@/server/services/oidc/sign-in-oidc";
import { startOidcLink, consumeOidcLink } from "@/server/services/oidc/link-intent";
import { listExternalIdentities, unlinkExternalIdentity } from "@/server/services/oidc/identities";
import { readOidcClaims } from "@/server/services/oidc/claims";
import { makeUser } from "../helpers";

const ISSUER = "https://idp.example/realms/test";
const rnd = () => Math.random().toString(36).slice(2, 8);
const claims = (extra: Record<string, unknown>) => readOidcClaims({ iss: ISSUER, sub: `sub-${rnd()}`, ...extra })!;

describe("OpenID Connect sign-in", () => {
  it("creates the account at the first sign-in and finds it at the next", async () => {
    const db = await getDb();
    const name = `oidc${rnd()}`;
    const c = claims({ preferred_username: name, name: "Olive", email: `${name}@x.example`, email_verified: true });
    const first = await resolveOidcSignIn(db, c, { issuer: ISSUER });
    expect(first).toMatchObject({ ok: true, created: true });
    const user = await db.user.findUniqueOrThrow({ where: { id: first.ok ? first.userId : "" } });
    expect(user).toMatchObject({ username: name, name: "Olive", email: `${name}@x.example`, passwordHash: null });
    const second = await resolveOidcSignIn(db, c, { issuer: `${ISSUER}/` });
    expect(second).toEqual({ ok: true, userId: user.id, created: false, linked: false });
    const [row] = await listExternalIdentities(db, user.id);
    expect(row).toMatchObject({ provider: "oidc", issuer: ISSUER, subject: c.sub });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it("makes the username unique and never links an existing account by email", async () => {
    const db = await getDb();
    const existing = await makeUser("taken");
    await db.user.update({ where: { id: existing.id }, data: { email: `${existing.username}@x.example` } });
    const c = claims({
      preferred_username: existing.username,
      email: `${existing.username.toUpperCase()}@x.example`,
      email_verified: true,
    });
    const r = await resolveOidcSignIn(db, c, { issuer: ISSUER });
    expect(r).toMatchObject({ ok: true, created: true });
    const created = await db.user.findUniqueOrThrow({ where: { id: r.ok ? r.userId : "" } });
    expect(created.id).not.toBe(existing.id);
    expect(created.username).toBe(`${existing.username}-2`);
    expect(created.email).toBeNull();
  });

  it("takes no unverified email", async () => {
    const db = await getDb();
    const r = await resolveOidcSignIn(db, claims({ preferred_username: `u${rnd()}`, email: `${rnd()}@x.example` }), { issuer: ISSUER });
    expect((await db.user.findUniqueOrThrow({ where: { id: r.ok ? r.userId : "" } })).email).toBeNull();
  });

  it("refuses another issuer", async () => {
    expect(await resolveOidcSignIn(await getDb(), claims({}), { issuer: "https://other.example" })).toEqual({
      ok: false,
      reason: "issuer",
    });
  });

  it("links from a link intent, once, and not an identity of another user", async () => {
    const db = await getDb();
    const alice = await makeUser("alice");
    const c = claims({ preferred_username: "whoever" });
    const { secret } = await startOidcLink(db, alice.id);
    expect(await resolveOidcSignIn(db, c, { issuer: ISSUER, linkSecret: secret })).toEqual({
      ok: true,
      userId: alice.id,
      created: false,
      linked: true,
    });
    // the intent is used up
    expect(await consumeOidcLink(db, secret)).toBeNull();
    expect(await resolveOidcSignIn(db, c, { issuer: ISSUER, linkSecret: secret })).toEqual({ ok: false, reason: "link-expired" });
    // signing in with it now lands on alice
    expect(await resolveOidcSignIn(db, c, { issuer: ISSUER })).toMatchObject({ ok: true, userId: alice.id });
    // bob cannot take it
    const bob = await makeUser("bob");
    const bobLink = await startOidcLink(db, bob.id);
    expect(await resolveOidcSignIn(db, c, { issuer: ISSUER, linkSecret: bobLink.secret })).toEqual({
      ok: false,
      reason: "linked-elsewhere",
    });
    // alice cannot link a second identity at the same issuer
    const again = await startOidcLink(db, alice.id);
    expect(await resolveOidcSignIn(db, claims({}), { issuer: ISSUER, linkSecret: again.secret })).toEqual({
      ok: false,
      reason: "already-linked",
    });
    // an expired intent does nothing
    const old = await startOidcLink(db, bob.id);
    await db.authChallenge.updateMany({
      where: { userId: bob.id, purpose: "oidc-link" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(await consumeOidcLink(db, old.secret)).toBeNull();
  });

  it("unlinks only while another way to sign in remains", async () => {
    const db = await getDb();
    const r = await resolveOidcSignIn(db, claims({ preferred_username: `solo${rnd()}` }), { issuer: ISSUER });
    const userId = r.ok ? r.userId : "";
    const [row] = await listExternalIdentities(db, userId);
    await expect(unlinkExternalIdentity(db, userId, row.id)).rejects.toMatchObject({ code: "PRECONDITION_FAILED" });
    const other = await makeUser("other");
    await expect(unlinkExternalIdentity(db, other.id, row.id)).rejects.toMatchObject({ code: "NOT_FOUND" });

    const withPassword = await makeUser("pw");
    const { secret } = await startOidcLink(db, withPassword.id);
    await resolveOidcSignIn(db, claims({}), { issuer: ISSUER, linkSecret: secret });
    const [linked] = await listExternalIdentities(db, withPassword.id);
    expect(await unlinkExternalIdentity(db, withPassword.id, linked.id)).toEqual({ id: linked.id, unlinked: true });
    expect(await listExternalIdentities(db, withPassword.id)).toEqual([]);
  });
});
