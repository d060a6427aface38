import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const bin = path.join(root, "bin/svc.mjs");

function svc(args: string[], env: Record<string, string | undefined> = {}, input?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    input,
    encoding: "utf8",
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: process.env.DATA_DIR, DATABASE_URL: process.env.DATABASE_URL, ...env } as Record<string, string | undefined> as NodeJS.ProcessEnv,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("svc CLI (real process, temp database)", () => {
  it("creates a user, then creates, lists and revokes tokens", () => {
    const user = svc(["user", "create", "cli-alice", "--password-stdin"], {}, "correct horse battery\n");
    expect(user.err).toBe("");
    expect(user.code).toBe(0);
    const userId = user.out.trim();
    expect(userId).toMatch(/^[0-9a-f-]{36}$/);

    const created = svc(["token", "create", "deploy", "-s", "repo:read", "--expires", "30"], { SVC_USER_ID: userId });
    expect(created.code).toBe(0);
    const secret = /svc_[0-9A-Za-z]{8}_[0-9A-Za-z]{40}/.exec(created.out)![0];
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

  it("aborts with a clear message when DATABASE_URL or SVC_USER_ID is missing", () => {
    const noUser = svc(["token", "list"]);
    expect(noUser.code).toBe(2);
    expect(noUser.err).toMatch(/SVC_USER_ID must be set/);
    const noDb = svc(["token", "list"], { DATABASE_URL: undefined, SVC_USER_ID: "x" });
    expect(noDb.code).toBe(2);
    expect(noDb.err).toMatch(/DATABASE_URL must be set/);
    const noStdin = svc(["user", "create", "bob"]);
    expect(noStdin.code).toBe(2);
    expect(noStdin.err).toMatch(/--password-stdin is required/);
  });

  it("lists scopes with descriptions", () => {
    const r = svc(["token", "scopes"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/repo:admin\s+manage settings, collaborators, deletion/);
  });
});
