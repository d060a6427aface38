/**
 * Rate limits that strangers cannot abuse (docs/api.md "Rate limits") — sign-in per (address,
 * account), per address and per account from new addresses, consumed before the password check; a
 * dummy hash for unknown users; sign-ups per address; issue, comment and token creation per user;
 * the per-issue and per-repository label caps; case-insensitive emails. Real SQLite (or
 * PostgreSQL), real argon2, the real router and HTTP. Every test uses its own made-up client
 * addresses, so tests do not share counts.
 */
import { describe, expect, it, vi } from "vitest";
import { randomInt, randomUUID } from "node:crypto";
import { TRPCError } from "@trpc/server";
import * as argon2 from "@node-rs/argon2";
import { getDb } from "@/server/db";
import { authenticate } from "@/server/services/users/sign-in";
import { signUp } from "@/server/services/users/sign-up";
import { createToken } from "@/server/services/tokens/manage-tokens";
import { MAX_LABELS_PER_ISSUE, MAX_LABELS_PER_REPO } from "@/server/services/issues/labels";
import { LIMITS, addressKey, reset } from "@/server/rate-limit";
import { contextFor } from "@/server/api/trpc";
import { createCaller } from "@/server/api/root";
import { AppError } from "@/server/errors";
import { makeUser, serviceToken, startServer } from "../helpers";
import { codeOf, issueWorld } from "./issues-fixtures";

// verify passes through to argon2; the spy only counts calls (for the dummy-hash check)
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const real = await importOriginal<typeof import("@node-rs/argon2")>();
  return { ...real, verify: vi.fn(real.verify) };
});

/** A fresh made-up IPv4 address (TEST-NET and private ranges). */
const newAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** What each of `attempts` answered: "null", "ok" or the AppError code. */
async function outcomes(attempts: Promise<unknown>[]): Promise<string[]> {
  return Promise.all(
    attempts.map((p) =>
      p.then(
        (r) => (r === null ? "null" : "ok"),
        (e) => (e instanceof AppError ? e.code : String(e)),
      ),
    ),
  );
}
const count = (xs: string[], x: string) => xs.filter((y) => y === x).length;

describe("sign-in limits", () => {
  it("30 parallel wrong guesses from one address reach the password check at most 10 times", async () => {
    const db = await getDb();
    const user = await makeUser("race");
    const ip = newAddress();
    const res = await outcomes(Array.from({ length: 30 }, () => authenticate(db, user.username, "wrong password", ip)));
    expect(count(res, "null")).toBe(LIMITS.signInFailures.points);
    expect(count(res, "TOO_MANY_REQUESTS")).toBe(30 - LIMITS.signInFailures.points);
    // even the right password is refused from that address now, with a retry-after …
    await expect(authenticate(db, user.username, "password123", ip)).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/too many failed sign-in attempts for this account from your address; try again in \d+ minutes/),
      retryAfter: expect.any(Number),
    });
    // … but one address cannot lock the account for anyone else
    expect(await authenticate(db, user.username, "password123", newAddress())).toMatchObject({ id: user.id });
  });

  it("unknown usernames are checked against a dummy hash and limited the same way", async () => {
    const db = await getDb();
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    const ip = newAddress();
    const res = await outcomes(Array.from({ length: 15 }, () => authenticate(db, `nobody-${randomUUID()}`.slice(0, 30), "guess", ip)));
    expect(res).toEqual(Array(15).fill("null")); // different accounts: only the address level counts them
    expect(verify).toHaveBeenCalledTimes(15);
    const hashes = new Set(verify.mock.calls.map((c) => c[0]));
    expect(hashes.size).toBe(1); // one fixed dummy hash …
    expect([...hashes][0]).toMatch(/^\$argon2id\$/); // … a real argon2id hash, so the check costs the same
    const same = await outcomes(Array.from({ length: 12 }, () => authenticate(db, "no-such-user-x", "guess", ip)));
    expect(count(same, "null")).toBe(LIMITS.signInFailures.points);
    expect(count(same, "TOO_MANY_REQUESTS")).toBe(2);
  });

  it("limits one address over all accounts (password spraying)", async () => {
    const db = await getDb();
    const ip = newAddress();
    const per = LIMITS.signInFailures.points;
    const accounts = Array.from({ length: LIMITS.signInAddressFailures.points / per }, (_, i) => `spray-${i}-${randomInt(1e9)}`);
    for (const a of accounts)
      expect(count(await outcomes(Array.from({ length: per }, () => authenticate(db, a, "x", ip))), "null")).toBe(per);
    const user = await makeUser("spr");
    await expect(authenticate(db, user.username, "password123", ip)).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/^too many failed sign-in attempts from your address/),
    });
    expect(await authenticate(db, user.username, "password123", newAddress())).toMatchObject({ id: user.id });
  });

  it("many addresses lock an account for new addresses only; where the owner signed in before still works", async () => {
    const db = await getDb();
    const user = await makeUser("dist");
    const home = newAddress();
    expect(await authenticate(db, user.username, "password123", home)).toMatchObject({ id: user.id });
    // 10 addresses, 10 guesses each: every one reaches the password check …
    const per = LIMITS.signInFailures.points;
    for (let i = 0; i < LIMITS.signInAccountFailures.points / per; i++) {
      const ip = newAddress();
      expect(await outcomes(Array.from({ length: per }, () => authenticate(db, user.username, "guess", ip)))).toEqual(
        Array(per).fill("null"),
      );
    }
    // … and now the account-wide count (100 / hour) is used up for addresses it has never seen
    const stranger = newAddress();
    await expect(authenticate(db, user.username, "password123", stranger)).rejects.toMatchObject({
      code: "TOO_MANY_REQUESTS",
      message: expect.stringMatching(/sign in from an address you used before/),
    });
    // the owner's usual address is not held
    expect(await authenticate(db, user.username, "password123", home)).toMatchObject({ id: user.id });
    // refusals at the account level took nothing from the stranger's own counts
    for (let i = 0; i < 15; i++)
      await expect(authenticate(db, user.username, "guess", stranger)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
    await reset("signInAccountFailures", user.username.toLowerCase()); // the hour passes
    expect(await authenticate(db, user.username, "password123", stranger)).toMatchObject({ id: user.id });
  });

  it("groups IPv6 addresses by /64", async () => {
    expect(addressKey("2001:db8:0:1::1")).toBe("2001:db8:0:1::/64");
    expect(addressKey("2001:0db8:0000:0001:ffff:0:0:1")).toBe("2001:db8:0:1::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
    expect(addressKey("192.0.2.1")).toBe("192.0.2.1");
    expect(addressKey("unknown")).toBe("unknown");
    const db = await getDb();
    const user = await makeUser("v6");
    const net = `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`;
    for (let i = 0; i < LIMITS.signInFailures.points; i++)
      expect(await authenticate(db, user.username, "x", `${net}::${i + 1}`)).toBeNull();
    await expect(authenticate(db, user.username, "password123", `${net}:ffff::1`)).rejects.toMatchObject({ code: "TOO_MANY_REQUESTS" });
  });
});

describe("sign-up", () => {
  async function post(url: string, ip: string, input: unknown) {
    const res = await fetch(`${url}/api/trpc/users.signUp`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: JSON.stringify(input),
    });
    return { status: res.status, body: await res.json(), retryAfter: res.headers.get("retry-after") };
  }

  it("counts every attempt per address over HTTP; the CLI path is not limited", async () => {
    const server = await startServer();
    try {
      const ip = newAddress();
      const n = LIMITS.signUps.points;
      for (let i = 0; i < n; i++) {
        const input =
          i % 4 === 0
            ? { username: `su${i}x${randomInt(1e6)}`, password: "short" }
            : { username: `su${i}x${randomInt(1e6)}`, password: "password123" };
        expect((await post(server.url, ip, input)).status).toBe(i % 4 === 0 ? 400 : 200);
      }
      const refused = await post(server.url, ip, { username: `late${randomInt(1e6)}`, password: "password123" });
      expect(refused.status).toBe(429);
      expect(refused.body.error.data).toMatchObject({ code: "TOO_MANY_REQUESTS", retryAfter: expect.any(Number) });
      expect(Number(refused.retryAfter)).toBe(refused.body.error.data.retryAfter); // the standard header too
      expect(refused.body.error.message).toMatch(/too many sign-up attempts from your address/);
      expect((await post(server.url, newAddress(), { username: `other${randomInt(1e6)}`, password: "password123" })).status).toBe(200);
    } finally {
      await server.close();
    }
    // signUp without an address (svc user create, test fixtures) counts nothing
    for (let i = 0; i < 3; i++) await makeUser("cli");
  });

  it("compares and stores emails case-insensitively", async () => {
    const db = await getDb();
    const tag = randomInt(1e9);
    const a = await signUp(db, { username: `em${tag}`, password: "password123", email: `Alice.${tag}@Example.COM` });
    expect(a.email).toBe(`alice.${tag}@example.com`);
    await expect(signUp(db, { username: `em${tag}b`, password: "password123", email: `alice.${tag}@example.com` })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "that email is already in use",
    });
    await expect(signUp(db, { username: `em${tag}c`, password: "password123", email: `ALICE.${tag}@EXAMPLE.COM` })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    // a row stored before emails were lower-cased still conflicts
    const legacy = await makeUser("leg");
    await db.user.update({ where: { id: legacy.id }, data: { email: `Bob.${tag}@Example.com` } });
    await expect(signUp(db, { username: `em${tag}d`, password: "password123", email: `bob.${tag}@example.com` })).rejects.toMatchObject({
      code: "CONFLICT",
    });
  });
});

describe("creation limits per user", () => {
  const trpcCode = (e: unknown) => (e instanceof TRPCError ? e.code : String(e));

  it("issues: read-level callers get the strict limit, writers the generous one", async () => {
    const w = await issueWorld({ isPrivate: false });
    const n = LIMITS.issuesAsReader.points;
    const made = await Promise.allSettled(
      Array.from({ length: n + 5 }, (_, i) => w.as.reader.issues.create({ repoId: w.repoId, title: `r${i}` })),
    );
    expect(made.filter((m) => m.status === "fulfilled")).toHaveLength(n);
    const refused = made.filter((m) => m.status === "rejected").map((m) => (m as PromiseRejectedResult).reason as TRPCError);
    expect(refused.map(trpcCode)).toEqual(Array(5).fill("TOO_MANY_REQUESTS"));
    expect(refused[0].message).toMatch(/too many issues opened in repositories where you have read access/);
    expect((refused[0].cause as AppError).retryAfter).toBeGreaterThan(0);
    // other users are unaffected, and a writer may open far more
    expect(await codeOf(w.as.stranger.issues.create({ repoId: w.repoId, title: "stranger" }))).toBe("OK");
    for (let i = 0; i < n + 1; i++) await w.as.writer.issues.create({ repoId: w.repoId, title: `w${i}` });
  }, 120_000);

  it("comments: read-level callers are limited per user", async () => {
    const w = await issueWorld({ isPrivate: false });
    const issue = await w.as.owner.issues.create({ repoId: w.repoId, title: "talk" });
    const n = LIMITS.commentsAsReader.points;
    const made = await Promise.allSettled(
      Array.from({ length: n + 3 }, (_, i) => w.as.reader.issues.addComment({ repoId: w.repoId, number: issue.number, body: `c${i}` })),
    );
    expect(made.filter((m) => m.status === "fulfilled")).toHaveLength(n);
    expect(made.filter((m) => m.status === "rejected").map((m) => trpcCode((m as PromiseRejectedResult).reason))).toEqual(
      Array(3).fill("TOO_MANY_REQUESTS"),
    );
    expect(await w.as.reader.issues.comments({ repoId: w.repoId, number: issue.number })).toHaveLength(n); // nothing partial
    expect(await codeOf(w.as.writer.issues.addComment({ repoId: w.repoId, number: issue.number, body: "still fine" }))).toBe("OK");
  }, 120_000);

  it("tokens: 30 per user per hour; REST answers 429 with Retry-After", async () => {
    const db = await getDb();
    const user = await makeUser("tok");
    const n = LIMITS.tokenCreations.points;
    const res = await outcomes(Array.from({ length: n + 2 }, (_, i) => createToken(db, user.id, { name: `t${i}` })));
    expect(count(res, "ok")).toBe(n);
    expect(count(res, "TOO_MANY_REQUESTS")).toBe(2);
    expect(await db.accessToken.count({ where: { userId: user.id } })).toBe(n);
    const server = await startServer();
    try {
      const r = await fetch(`${server.url}/api/tokens`, {
        method: "POST",
        headers: { authorization: `Bearer ${await serviceToken(user)}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "one more" }),
      });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});

describe("label caps", () => {
  it(`an issue carries at most ${MAX_LABELS_PER_ISSUE} labels, also under concurrent adds`, async () => {
    const w = await issueWorld();
    const c = w.as.owner;
    const labels = [];
    for (let i = 0; i < MAX_LABELS_PER_ISSUE + 5; i++)
      labels.push(await c.issues.createLabel({ repoId: w.repoId, name: `l${i}`, color: "#000000" }));
    const issue = await c.issues.create({
      repoId: w.repoId,
      title: "many",
      labels: labels.slice(0, MAX_LABELS_PER_ISSUE - 3).map((l) => l.name),
    });
    const codes = await Promise.all(
      labels
        .slice(MAX_LABELS_PER_ISSUE - 3)
        .map((l) => codeOf(c.issues.addLabel({ repoId: w.repoId, number: issue.number, labelId: l.id }))),
    );
    expect(count(codes, "OK")).toBe(3);
    expect(count(codes, "BAD_REQUEST")).toBe(5);
    const carried = (await c.issues.get({ repoId: w.repoId, number: issue.number })).labels;
    expect(carried).toHaveLength(MAX_LABELS_PER_ISSUE);
    // a label the issue does not carry (which of the concurrent adds won varies)
    const off = labels.find((l) => !carried.some((x) => x.id === l.id))!;
    const msg = await c.issues.addLabel({ repoId: w.repoId, number: issue.number, labelId: off.id }).catch((e: Error) => e.message);
    expect(msg).toBe(`an issue has at most ${MAX_LABELS_PER_ISSUE} labels; remove one first`);
    // adding one it already has is still a no-op, not an error
    expect(await codeOf(c.issues.addLabel({ repoId: w.repoId, number: issue.number, labelId: labels[0].id }))).toBe("OK");
    const activity = await c.issues.getActivity({ repoId: w.repoId, number: issue.number, limit: 200 });
    expect(activity.filter((a) => a.action === "labeled")).toHaveLength(3); // refused adds wrote nothing
  }, 120_000);

  it(`a repository defines at most ${MAX_LABELS_PER_REPO} labels`, async () => {
    const w = await issueWorld();
    const db = await getDb();
    await db.label.createMany({
      data: Array.from({ length: MAX_LABELS_PER_REPO }, (_, i) => ({
        repoId: w.repoId,
        name: `x${i}`,
        nameLower: `x${i}`,
        color: "#000000",
      })),
    });
    const err = await w.as.owner.issues
      .createLabel({ repoId: w.repoId, name: "one too many", color: "#000000" })
      .catch((e: TRPCError) => e);
    expect(err).toMatchObject({
      code: "BAD_REQUEST",
      message: `a repository has at most ${MAX_LABELS_PER_REPO} labels; delete unused ones first`,
    });
    expect(await db.label.count({ where: { repoId: w.repoId } })).toBe(MAX_LABELS_PER_REPO);
  }, 120_000);
});

// The router passes the caller's address from ctx.headers (x-forwarded-for, set by svc's server).
it("users.signUp through the router reads the address from the request headers", async () => {
  const ip = newAddress();
  const caller = createCaller(await contextFor(null, new Headers({ "x-forwarded-for": ip })));
  for (let i = 0; i < LIMITS.signUps.points; i++)
    await caller.users.signUp({ username: `rt${i}x${randomInt(1e6)}`, password: "x" }).catch(() => {});
  expect(await codeOf(caller.users.signUp({ username: `rt${randomInt(1e6)}`, password: "password123" }))).toBe("TOO_MANY_REQUESTS");
  const other = createCaller(await contextFor(null, new Headers({ "x-forwarded-for": newAddress() })));
  expect(await codeOf(other.users.signUp({ username: `rt${randomInt(1e6)}`, password: "password123" }))).toBe("OK");
});
