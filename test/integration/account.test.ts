/**
 * Account settings and profiles (docs/api.md "Accounts"): users.updateProfile,
 * users.changePassword, users.profile, and what repos.list {owner} shows a profile's visitors.
 * Through the real router (createCaller), on SQLite or PostgreSQL (TEST_DATABASE_URL).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { type Profile } from "@/server/services/users/profile";
import { authenticate } from "@/server/services/users/sign-in";
import { startSession } from "@/server/services/users/sessions";
import { SCOPES } from "@/server/auth/scopes";
import type { Actor } from "@/server/auth/actor";
import { actorOf, callerFor, makeUser } from "../helpers";
import { outcome } from "../procedures";

/** A browser-session actor backed by a real UserSession row (as a sign-in makes). */
async function sessionActor(user: Profile): Promise<Actor> {
  const sessionId = await startSession(await getDb(), user.id, "test browser");
  return { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES, sessionId };
}

describe("users.updateProfile", () => {
  it("changes the caller's name and email, lower-cases the email, and removes them with empty strings", async () => {
    const user = await makeUser("prof");
    const me = await callerFor(actorOf(user));
    expect(await me.users.updateProfile({ name: "  Ada Lovelace ", email: "Ada@Example.COM" })).toEqual({
      id: user.id,
      username: user.username,
      name: "Ada Lovelace",
      email: "ada@example.com",
    });
    expect(await me.users.me()).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" });
    // absent fields are kept
    expect(await me.users.updateProfile({ name: "Ada" })).toMatchObject({ name: "Ada", email: "ada@example.com" });
    expect(await me.users.updateProfile({ name: "", email: "" })).toMatchObject({ name: null, email: null });
  });

  it("refuses an email another account uses, whatever its case, with CONFLICT, and changes nothing", async () => {
    const taken = await makeUser("taken");
    await (await callerFor(actorOf(taken))).users.updateProfile({ email: "shared@example.com" });
    const user = await makeUser("wants");
    const me = await callerFor(actorOf(user));
    await me.users.updateProfile({ name: "Before" });
    await expect(me.users.updateProfile({ name: "After", email: "SHARED@example.com" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "that email is already in use",
    });
    expect(await me.users.me()).toMatchObject({ name: "Before", email: null });
    // one's own address in another case is not a conflict
    await (await callerFor(actorOf(taken))).users.updateProfile({ email: "Shared@Example.com" });
    expect(await (await callerFor(actorOf(taken))).users.me()).toMatchObject({ email: "shared@example.com" });
  });

  it("refuses malformed emails and over-long names with BAD_REQUEST naming the field", async () => {
    const me = await callerFor(actorOf(await makeUser("bad")));
    await expect(me.users.updateProfile({ email: "not-an-email" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("email"),
    });
    await expect(me.users.updateProfile({ name: "x".repeat(101) })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("name"),
    });
    await expect(me.users.updateProfile({ name: "a\nb" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("changes only the caller's own profile; needs user:write from a token; anonymous is UNAUTHORIZED", async () => {
    const victim = await makeUser("victim");
    await (await callerFor(actorOf(victim))).users.updateProfile({ name: "Victim" });
    const other = await makeUser("other");
    // there is no way to name another user: the input has no id, and an unknown field is ignored
    await (await callerFor(actorOf(other))).users.updateProfile({ name: "Mallory", id: victim.id } as never);
    expect(await (await callerFor(actorOf(victim))).users.me()).toMatchObject({ name: "Victim" });
    expect(await (await callerFor(actorOf(other))).users.me()).toMatchObject({ name: "Mallory" });

    const readOnly = await callerFor(actorOf(victim, ["user:read", "repo:admin"]));
    await expect(readOnly.users.updateProfile({ name: "Hacked" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("user:write"),
    });
    expect(await outcome(await callerFor(null), "users.updateProfile", { name: "x" })).toBe("UNAUTHORIZED");
    expect(await (await callerFor(actorOf(victim))).users.me()).toMatchObject({ name: "Victim" });
    // a token with user:write may
    expect(await (await callerFor(actorOf(victim, ["user:write"]))).users.updateProfile({ name: "Via token" })).toMatchObject({
      name: "Via token",
    });
  });
});

describe("users.changePassword", () => {
  it("needs the current password; a wrong one is BAD_REQUEST and changes nothing", async () => {
    const user = await makeUser("pw");
    const me = await callerFor(await sessionActor(user));
    await expect(me.users.changePassword({ currentPassword: "wrong-password", newPassword: "brand-new-secret" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "current password is incorrect",
    });
    const db = await getDb();
    expect(await authenticate(db, user.username, "password123")).toMatchObject({ id: user.id });
    expect(await authenticate(db, user.username, "brand-new-secret")).toBeNull();
  });

  it("refuses a new password shorter than sign-up allows, or equal to the current one", async () => {
    const user = await makeUser("pwshort");
    const me = await callerFor(await sessionActor(user));
    await expect(me.users.changePassword({ currentPassword: "password123", newPassword: "short" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "password must be at least 8 characters",
    });
    await expect(me.users.changePassword({ currentPassword: "password123", newPassword: "password123" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("differ"),
    });
    expect(await authenticate(await getDb(), user.username, "password123")).toMatchObject({ id: user.id });
  });

  it("stores an argon2id hash of the new password, keeps the caller's session and ends the others", async () => {
    const db = await getDb();
    const user = await makeUser("pwok");
    const current = await sessionActor(user);
    const otherA = await startSession(db, user.id, "laptop");
    const otherB = await startSession(db, user.id, "phone");
    const stranger = await makeUser("pwkeep");
    const strangerSession = await startSession(db, stranger.id, "theirs");

    const result = await (
      await callerFor(current)
    ).users.changePassword({ currentPassword: "password123", newPassword: "correct horse battery" });
    expect(result).toEqual({ changed: true, signedOut: 2 });
    const row = await db.user.findUnique({ where: { id: user.id }, select: { passwordHash: true } });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await authenticate(db, user.username, "correct horse battery")).toMatchObject({ id: user.id });
    expect(await authenticate(db, user.username, "password123")).toBeNull();
    const left = (
      await db.userSession.findMany({ where: { id: { in: [current.sessionId!, otherA, otherB, strangerSession] } }, select: { id: true } })
    )
      .map((s) => s.id)
      .sort();
    expect(left).toEqual([current.sessionId!, strangerSession].sort());
  });

  it("is refused to personal access tokens, even with user:write, and to tokens without it", async () => {
    const user = await makeUser("pwpat");
    const input = { currentPassword: "password123", newPassword: "another-password" };
    await expect((await callerFor(actorOf(user, ["user:write"]))).users.changePassword(input)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringMatching(/personal access tokens cannot change the password/),
    });
    await expect((await callerFor(actorOf(user, ["user:read", "repo:admin"]))).users.changePassword(input)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: expect.stringContaining("user:write"),
    });
    expect(await outcome(await callerFor(null), "users.changePassword", input)).toBe("UNAUTHORIZED");
    expect(await authenticate(await getDb(), user.username, "password123")).toMatchObject({ id: user.id });
  });

  it("is rate-limited: after 10 wrong current passwords even the right one is TOO_MANY_REQUESTS", async () => {
    const user = await makeUser("pwlimit");
    const me = await callerFor(await sessionActor(user));
    for (let i = 0; i < 10; i++) {
      await expect(me.users.changePassword({ currentPassword: `guess-${i}-xx`, newPassword: "brand-new-secret" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    }
    await expect(me.users.changePassword({ currentPassword: "password123", newPassword: "brand-new-secret" })).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringContaining("password attempts"),
    });
    expect(await authenticate(await getDb(), user.username, "password123")).toMatchObject({ id: user.id });
  });

  it("a correct password clears the count of wrong ones", async () => {
    const user = await makeUser("pwreset");
    const me = await callerFor(await sessionActor(user));
    for (let i = 0; i < 9; i++)
      await expect(me.users.changePassword({ currentPassword: `guess-${i}-xx`, newPassword: "brand-new-secret" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    await me.users.changePassword({ currentPassword: "password123", newPassword: "brand-new-secret" });
    for (let i = 0; i < 9; i++)
      await expect(me.users.changePassword({ currentPassword: `guess-${i}-yy`, newPassword: "third-secret-x" })).rejects.toMatchObject({
        code: "BAD_REQUEST",
      });
    expect(await me.users.changePassword({ currentPassword: "brand-new-secret", newPassword: "third-secret-x" })).toMatchObject({
      changed: true,
    });
  });
});

describe("users.profile and a profile's repositories", () => {
  let owner: Profile;
  let collaborator: Profile;
  let stranger: Profile;

  beforeAll(async () => {
    owner = await makeUser("pown");
    collaborator = await makeUser("pcol");
    stranger = await makeUser("pstr");
    const o = await callerFor(actorOf(owner));
    await o.users.updateProfile({ name: "Profile Owner", email: "owner@example.com" });
    await o.repos.create({ name: "public-one" });
    await o.repos.create({ name: "public-two" });
    const shared = await o.repos.create({ name: "shared-secret", isPrivate: true });
    await o.repos.create({ name: "hidden", isPrivate: true });
    await o.repos.addCollaborator({ repoId: shared.id, username: collaborator.username, role: "read" });
  });

  it("answers anyone with the public fields only (never the email), case-insensitively", async () => {
    const profile = await (await callerFor(null)).users.profile({ username: owner.username.toUpperCase() });
    expect(profile).toEqual({
      id: owner.id,
      username: owner.username,
      name: "Profile Owner",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      kind: "user",
    });
    expect(JSON.stringify(profile)).not.toContain("owner@example.com");
  });

  it("is NOT_FOUND for an unknown user and BAD_REQUEST for a malformed name", async () => {
    await expect((await callerFor(null)).users.profile({ username: "nobody-here-at-all" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "user not found",
    });
    expect(await outcome(await callerFor(null), "users.profile", { username: "" })).toBe("BAD_REQUEST");
    expect(await outcome(await callerFor(null), "users.profile", { username: "x".repeat(40) })).toBe("BAD_REQUEST");
  });

  const names = async (actor: Actor | null) =>
    (await (await callerFor(actor)).repos.list({ owner: owner.username, limit: 100 })).map((r) => r.name).sort();

  it("shows a stranger and an anonymous visitor only the public repositories", async () => {
    expect(await names(null)).toEqual(["public-one", "public-two"]);
    expect(await names(actorOf(stranger))).toEqual(["public-one", "public-two"]);
  });

  it("adds the private ones a signed-in viewer can read, and the owner sees all", async () => {
    expect(await names(actorOf(collaborator))).toEqual(["public-one", "public-two", "shared-secret"]);
    expect(await names(actorOf(owner))).toEqual(["hidden", "public-one", "public-two", "shared-secret"]);
    // a token without repo:read sees what an anonymous visitor sees
    expect(await names(actorOf(owner, ["user:read"]))).toEqual(["public-one", "public-two"]);
  });
});

describe("users.updateProfile input errors name the field", () => {
  it("answers BAD_REQUEST with the field's own message for bad text", async () => {
    const me = await callerFor(actorOf(await makeUser("msg")));
    await expect(me.users.updateProfile({ email: "x\ud800@example.com" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^email: email /),
    });
    await expect(me.users.updateProfile({ email: "nope" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "email: email is not a valid address",
    });
    await expect(me.users.updateProfile({ email: 5 as never })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("email"),
    });
  });
});
