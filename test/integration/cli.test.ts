import { describe, expect, it } from "vitest";
import { svc } from "../fixtures/svc-cli";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { getDb } from "@/server/db";
import { signUp } from "@/server/services/users/sign-up";
import { authenticate } from "@/server/services/users/sign-in";
import { startSession } from "@/server/services/users/sessions";
import { refreshTwoFactorFlag } from "@/server/services/two-factor/two-factor-flag";

// Each CLI run starts tsx (seconds on a loaded machine): generous per-test limits.
describe("svc CLI (real process, temp database)", { timeout: 240_000 }, () => {
  it("creates a user, then creates, lists and revokes tokens", () => {
    const user = svc(["user", "create", "cli-alice", "--password-stdin", "--init"], {}, "correct horse battery\n");
    expect(user.err).toBe("");
    expect(user.code).toBe(0);
    const userId = user.out.trim();
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);

    const created = svc(["token", "create", "deploy", "-s", "repo:read", "--expires", "30"], { SVC_USER_ID: userId });
    expect(created.code).toBe(0);
    const secret = /svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{46}/.exec(created.out)![0];
    expect(created.out).toMatch(/Scopes:\s+repo:read\n/);
    expect(created.out).toMatch(/shown only once/);

    const second = svc(["token", "create", "ci"], { SVC_USER_ID: userId });
    expect(second.out).toMatch(/Scopes:\s+repo:read, repo:write/);
    expect(second.out).toMatch(/Expires: never/);

    const list = svc(["token", "ls"], { SVC_USER_ID: userId });
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/PREFIX\s+NAME\s+ID\s+SCOPES\s+LAST USED\s+EXPIRES/);
    expect(list.out).toContain(secret.slice(0, 12));
    expect(list.out).not.toContain(secret.slice(13));
    expect(list.out).toMatch(/never/);

    const revoked = svc(["token", "rm", secret.slice(0, 12)], { SVC_USER_ID: userId });
    expect(revoked.code).toBe(0);
    expect(revoked.out).toMatch(/Revoked token "deploy"/);
    expect(svc(["token", "list"], { SVC_USER_ID: userId }).out).not.toContain(secret.slice(0, 12));

    const unknown = svc(["token", "revoke", "zzzzzzzz"], { SVC_USER_ID: userId });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/no token matches/);

    const badScope = svc(["token", "create", "x", "-s", "repo:nope"], { SVC_USER_ID: userId });
    expect(badScope.code).toBe(1);
    expect(badScope.err).toMatch(/unknown scope "repo:nope"/);
  });

  it("aborts with a clear message when SVC_USER_ID or --password-stdin is missing", () => {
    const noUser = svc(["token", "list"]);
    expect(noUser.code).toBe(2);
    expect(noUser.err).toMatch(/SVC_USER_ID must be set/);
    const noStdin = svc(["user", "create", "bob"]);
    expect(noStdin.code).toBe(2);
    expect(noStdin.err).toMatch(/--password-stdin is required/);
  });

  it("user set-password and user reset-two-factor: an operator's way back into an account", async () => {
    // the account is set up in this process, on the database the CLI opens (test/setup.ts)
    const db = await getDb();
    const name = `cli-rec-${randomBytes(3).toString("hex")}`;
    const user = await signUp(db, { username: name, password: "the old password" });
    await startSession(db, user.id, "laptop", { secondFactorDone: true });
    await db.user.update({ where: { id: user.id }, data: { totpSecret: "sealed", totpEnabledAt: new Date() } });
    await db.recoveryCode.createMany({ data: ["a", "b"].map((c) => ({ userId: user.id, codeHash: c })) });
    await db.passkey.create({
      data: { userId: user.id, name: "YubiKey", credentialId: `cred-${name}`, publicKey: "k", deviceType: "singleDevice" },
    });
    await refreshTwoFactorFlag(db, user.id);

    const set = svc(["user", "set-password", name, "--password-stdin"], {}, "a new password\n");
    expect({ code: set.code, err: set.err, out: set.out }).toEqual({
      code: 0,
      err: "",
      out: `Set the password of ${name}; ended 1 session(s).\n`,
    });
    expect(await authenticate(db, name, "a new password")).toMatchObject({ id: user.id });
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);

    await startSession(db, user.id, "phone"); // pending its second factor
    const reset = svc(["user", "reset-two-factor", name]);
    expect({ code: reset.code, err: reset.err }).toEqual({ code: 0, err: "" });
    expect(reset.out).toMatch(
      /TOTP app:\s+removed\n\s+Recovery codes: 2 removed\n\s+Passkeys:\s+1 removed \("YubiKey"\)\n\s+Sessions:\s+1 ended\n/,
    );
    expect(await db.user.findUnique({ where: { id: user.id }, select: { totpSecret: true, twoFactorEnabled: true } })).toEqual({
      totpSecret: null,
      twoFactorEnabled: false,
    });
    expect(await db.passkey.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.recoveryCode.count({ where: { userId: user.id } })).toBe(0);
    expect(await db.userSession.count({ where: { userId: user.id } })).toBe(0);

    const unknown = svc(["user", "reset-two-factor", "no-such-user-here"]);
    expect({ code: unknown.code, err: unknown.err }).toEqual({ code: 1, err: 'svc: no user named "no-such-user-here"\n' });
  });

  it("lists scopes with descriptions", () => {
    const r = svc(["token", "scopes"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/repo:admin\s+manage settings, collaborators, deletion/);
  });
});

describe("svc CLI with REDIS_URL: every command exits by itself (issue #21 item 3)", { timeout: 240_000 }, () => {
  // each command must end on its own: an open Redis connection (the rate limiter's) kept the
  // process alive for good after printing its answer. 20 s is far beyond a run (a few seconds).
  const EXIT_WITHIN_MS = 20_000;
  const redisUrl = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
  const prefix = `svc-test-cli-${randomBytes(5).toString("hex")}`;

  it("user create, token create / list / revoke / scopes, ai-keys reencrypt", () => {
    const env = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix };
    const run = (args: string[], extra: Record<string, string> = {}, input?: string) => {
      const r = svc(args, { ...env, ...extra }, input, undefined, EXIT_WITHIN_MS);
      expect({ args, signal: r.signal, code: r.code, err: r.err }).toEqual({ args, signal: null, code: 0, err: "" });
      return r.out;
    };
    const userId = run(
      ["user", "create", `cli-redis-${randomBytes(3).toString("hex")}`, "--password-stdin", "--init"],
      {},
      "a long password\n",
    ).trim();
    const created = run(["token", "create", "with-redis"], { SVC_USER_ID: userId });
    const prefixShown = /svc_([0-9A-Za-z]{8})_/.exec(created)![1];
    expect(run(["token", "list"], { SVC_USER_ID: userId })).toContain(prefixShown);
    expect(run(["token", "revoke", `svc_${prefixShown}`], { SVC_USER_ID: userId })).toMatch(/Revoked token "with-redis"/);
    run(["token", "scopes"]);
    run(["ai-keys", "reencrypt"]);
  });

  it("exits too when no Redis listens at REDIS_URL (the limit counts in memory, with a warning)", () => {
    const userId = svc(
      ["user", "create", `cli-noredis-${randomBytes(3).toString("hex")}`, "--password-stdin", "--init"],
      {},
      "a long password\n",
    ).out.trim();
    const r = svc(
      ["token", "create", "no-redis"],
      { SVC_USER_ID: userId, REDIS_URL: "redis://127.0.0.1:1" },
      undefined,
      undefined,
      EXIT_WITHIN_MS,
    );
    expect({ signal: r.signal, code: r.code }).toEqual({ signal: null, code: 0 });
    expect(r.out).toMatch(/Created token "no-redis"/);
    expect(r.err).toMatch(/^svc: Redis at 127\.0\.0\.1:1 is unreachable/);
  });
});

describe("svc CLI finds the server's database or refuses (issue #6 item 19)", { timeout: 240_000 }, () => {
  const refused = /no svc database at (.+)\.\n/;

  it("run from another directory: refuses a database that does not exist, naming it, and creates nothing", () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), "svc-cli-cwd-"));
    try {
      const noDb = { DATABASE_URL: undefined, DATA_DIR: "data", SVC_USER_ID: "someone" };
      const list = svc(["token", "list"], noDb, undefined, elsewhere);
      expect(list.code).toBe(2);
      expect(refused.exec(list.err)?.[1]).toBe(path.join(elsewhere, "data", "svc.db"));
      expect(list.err).toMatch(/--init/);
      const user = svc(["user", "create", "bob", "--password-stdin"], noDb, "a long password\n", elsewhere);
      expect(user.code).toBe(2);
      expect(user.err).toMatch(refused);
      const url = svc(["token", "list"], { ...noDb, DATABASE_URL: "file:other/x.db" }, undefined, elsewhere);
      expect(url.code).toBe(2);
      expect(refused.exec(url.err)?.[1]).toBe(path.join(elsewhere, "other", "x.db"));
      expect(readdirSync(elsewhere)).toEqual([]);

      // --init creates it where it was looked for; later commands then find the same database
      const init = svc(["user", "create", "bob", "--password-stdin", "--init"], noDb, "a long password\n", elsewhere);
      expect(init.err).toBe("");
      expect(init.code).toBe(0);
      expect(existsSync(path.join(elsewhere, "data", "svc.db"))).toBe(true);
      const tokens = svc(["token", "list"], { ...noDb, SVC_USER_ID: init.out.trim() }, undefined, elsewhere);
      expect(tokens.code).toBe(0);
      expect(tokens.out).toMatch(/No tokens/);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("without DATA_DIR, looks where npm start keeps it: <svc folder>/data, whatever the current directory", () => {
    const app = mkdtempSync(path.join(os.tmpdir(), "svc-cli-app-"));
    try {
      const r = svc(
        ["token", "list"],
        { DATABASE_URL: undefined, DATA_DIR: undefined, SVC_APP_ROOT: app, SVC_USER_ID: "someone" },
        undefined,
        os.tmpdir(),
      );
      expect(r.code).toBe(2);
      expect(refused.exec(r.err)?.[1]).toBe(path.join(app, "data", "svc.db"));
      expect(readdirSync(app)).toEqual([]);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});
