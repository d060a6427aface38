/**
 * Git LFS over SSH (docs/lfs.md "Over SSH"): the SSH server and the HTTP server on free ports,
 * the real `git`, `git lfs` and `ssh`. git-lfs 3.x first tries `git-lfs-transfer`, which svc
 * refuses, then falls back to `git-lfs-authenticate`, whose token the LFS HTTP endpoints accept.
 * A user key pushes and clones LFS content; a read-only deploy key downloads but cannot upload;
 * the token is no git credential; on a transferred repository's former path the answer names the new
 * path, and a token minted before the transfer is redirected there. Isolated: it sets NEXTAUTH_URL (the href's public URL).
 */
import { execFile } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { resetConfig } from "@/server/config";
import { startSshServer, type RunningSshServer } from "@/server/ssh/server";
import { handleGitHttp } from "@/server/http/git/smart-http";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser, startServer } from "../helpers";
import { keygen as keygenIn, pub, sshOpts } from "../fixtures/ssh-client";

let dir: string;
let home: string;
let ssh: RunningSshServer;
let http: Awaited<ReturnType<typeof startServer>>;
let owner: Profile;
let repo: { id: string };
let ownerKey: string;
const previousUrl = process.env.NEXTAUTH_URL;

type Run = { code: number; stdout: string; stderr: string };
function run(cmd: string, args: string[], key: string, opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_SSH_COMMAND: `ssh ${sshOpts(key).join(" ")} -p ${ssh.port}`,
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    ...opts.env,
  };
  return new Promise((resolve) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd ?? dir, env: env as Record<string, string | undefined> as NodeJS.ProcessEnv, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}
const keygen = (name: string) => keygenIn(dir, name);
const sshUrl = () => `ssh://git@127.0.0.1:${ssh.port}/${owner.username}/lfs-ssh.git`;
/** Runs a command on svc's SSH server directly. */
const remote = (key: string, command: string) => run("ssh", [...sshOpts(key), "-p", String(ssh.port), "git@127.0.0.1", command], key);

const content = randomBytes(200_000);
const oid = createHash("sha256").update(content).digest("hex");

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-lfs-ssh-"));
  home = path.join(dir, "home");
  mkdirSync(home);
  ssh = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(dir, "hostkeys") });
  http = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
  process.env.NEXTAUTH_URL = http.url;
  resetConfig();
  owner = await makeUser("lfssshowner");
  const caller = await callerFor(actorOf(owner));
  repo = await caller.repos.create({ name: "lfs-ssh", isPrivate: true });
  ownerKey = keygen("owner");
  await caller.sshKeys.add({ title: "laptop", publicKey: pub(ownerKey) });
  await run("git", ["lfs", "install", "--skip-repo"], ownerKey);
});
afterAll(async () => {
  await ssh?.close();
  await http?.close();
  if (previousUrl === undefined) delete process.env.NEXTAUTH_URL;
  else process.env.NEXTAUTH_URL = previousUrl;
  resetConfig();
  rmSync(dir, { recursive: true, force: true });
});

describe("Git LFS over SSH", () => {
  it("a user key pushes and clones LFS content, git-lfs falling back from git-lfs-transfer to git-lfs-authenticate", async () => {
    const work = path.join(dir, "work");
    expect((await run("git", ["init", "--quiet", "--initial-branch=main", work], ownerKey)).code).toBe(0);
    await run("git", ["lfs", "track", "*.bin"], ownerKey, { cwd: work });
    writeFileSync(path.join(work, "asset.bin"), content);
    await run("git", ["add", "."], ownerKey, { cwd: work });
    expect((await run("git", ["commit", "--quiet", "-m", "asset"], ownerKey, { cwd: work })).code).toBe(0);
    const push = await run("git", ["push", sshUrl(), "main"], ownerKey, { cwd: work, env: { GIT_TRACE: "1" } });
    expect(push.code, push.stderr).toBe(0);
    expect(push.stderr).toContain("git-lfs-transfer");
    expect(push.stderr).toContain("git-lfs-authenticate");
    const db = await getDb();
    expect(await db.lfsRepoObject.count({ where: { repoId: repo.id, oid } })).toBe(1);

    const target = path.join(dir, "clone");
    const clone = await run("git", ["clone", "--quiet", sshUrl(), target], ownerKey);
    expect(clone.code, clone.stderr).toBe(0);
    expect(readFileSync(path.join(target, "asset.bin")).equals(content)).toBe(true);
  });

  it("answers git-lfs-authenticate with the public href and a token only the LFS endpoints accept", async () => {
    const r = await remote(ownerKey, `git-lfs-authenticate '${owner.username}/lfs-ssh.git' download`);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { href: string; header: { Authorization: string }; expires_in: number };
    expect(answer.href).toBe(`${http.url}/${owner.username}/lfs-ssh.git/info/lfs`);
    expect(answer.expires_in).toBe(600);
    const headers = { authorization: answer.header.Authorization, "content-type": "application/vnd.git-lfs+json" };
    const body = (operation: string) => JSON.stringify({ operation, objects: [{ oid, size: content.length }] });
    const down = await fetch(`${answer.href}/objects/batch`, { method: "POST", headers, body: body("download") });
    expect(down.status).toBe(200);
    // a download token cannot upload, and is no git credential
    expect((await fetch(`${answer.href}/objects/batch`, { method: "POST", headers, body: body("upload") })).status).toBe(403);
    const refs = await fetch(`${http.url}/${owner.username}/lfs-ssh.git/info/refs?service=git-upload-pack`, { headers });
    expect(refs.status).toBe(401);
    // git-lfs-transfer is refused with a message
    const transfer = await remote(ownerKey, `git-lfs-transfer '${owner.username}/lfs-ssh.git' upload`);
    expect(transfer.code).toBe(1);
    expect(transfer.stderr).toContain("does not serve git-lfs-transfer");
  });

  it("a read-only deploy key downloads LFS content but cannot upload; a stranger's key gets not found", async () => {
    const ro = keygen("deploy-ro");
    await (await callerFor(actorOf(owner))).repos.deployKeys.add({ repoId: repo.id, title: "ci", publicKey: pub(ro), readOnly: true });
    const target = path.join(dir, "ro-clone");
    const clone = await run("git", ["clone", "--quiet", sshUrl(), target], ro);
    expect(clone.code, clone.stderr).toBe(0);
    expect(readFileSync(path.join(target, "asset.bin")).equals(content)).toBe(true);
    const up = await remote(ro, `git-lfs-authenticate '${owner.username}/lfs-ssh.git' upload`);
    expect(up.code).toBe(1);
    expect(up.stderr).toContain("read-only");

    const stranger = await makeUser("lfssshstranger");
    const strangerKey = keygen("stranger");
    await (await callerFor(actorOf(stranger))).sshKeys.add({ title: "k", publicKey: pub(strangerKey) });
    const refused = await remote(strangerKey, `git-lfs-authenticate '${owner.username}/lfs-ssh.git' download`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("not found");
  });
  it("git-lfs-authenticate on a transferred repository's former path answers with the new path's href", async () => {
    const caller = await callerFor(actorOf(owner));
    const moving = await caller.repos.create({ name: "lfs-moving", isPrivate: true });
    // a token minted before the transfer, used on the former href after it: redirected (308) to the new path
    const before = JSON.parse((await remote(ownerKey, `git-lfs-authenticate '${owner.username}/lfs-moving.git' upload`)).stdout) as {
      href: string;
      header: { Authorization: string };
    };
    await caller.orgs.create({ name: `${owner.username}-org` });
    await caller.repos.transfer({ repoId: moving.id, newOwner: `${owner.username}-org` });
    const oldInit = {
      method: "POST",
      headers: { authorization: before.header.Authorization, "content-type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ operation: "upload", objects: [{ oid, size: content.length }] }),
    };
    const redirected = await fetch(`${before.href}/objects/batch`, { ...oldInit, redirect: "manual" });
    expect(redirected.status).toBe(308);
    expect(redirected.headers.get("location")).toBe(`/${owner.username}-org/lfs-moving.git/info/lfs/objects/batch`);
    expect((await fetch(`${before.href}/objects/batch`, oldInit)).status).toBe(200); // followed, the token still holds
    // a token of another repository gets no redirect on that path
    const other = JSON.parse((await remote(ownerKey, `git-lfs-authenticate '${owner.username}/lfs-ssh.git' upload`)).stdout) as {
      header: { Authorization: string };
    };
    const refused = await fetch(`${before.href}/objects/batch`, {
      ...oldInit,
      headers: { ...oldInit.headers, authorization: other.header.Authorization },
      redirect: "manual",
    });
    expect(refused.status).toBe(404);
    const r = await remote(ownerKey, `git-lfs-authenticate '${owner.username}/lfs-moving.git' upload`);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout) as { href: string; header: { Authorization: string } };
    expect(answer.href).toBe(`${http.url}/${owner.username}-org/lfs-moving.git/info/lfs`);
    const batch = await fetch(`${answer.href}/objects/batch`, {
      method: "POST",
      headers: { authorization: answer.header.Authorization, "content-type": "application/vnd.git-lfs+json" },
      body: JSON.stringify({ operation: "upload", objects: [{ oid, size: content.length }] }),
    });
    expect(batch.status).toBe(200);
  });
});
