/**
 * git over SSH (docs/ssh.md): the SSH server on a free port, client keys from ssh-keygen and the
 * real `git` and `ssh` — clone and push with a user key, refused shells and commands, strangers
 * and unknown keys, read-only and write deploy keys, branch protection as over HTTP, a transferred
 * repository's former path, the graceful stop. The limits, PROXY protocol and metrics: ssh-limits.test.ts.
 */
import net from "node:net";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSshServer, type RunningSshServer } from "@/server/ssh/server";
import { parseGitCommand } from "@/server/ssh/command";
import { sshCloneUrl } from "@/server/services/repos/repo-view";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { closedWithin, keygen as keygenIn, pub, run, sshOpts, type Run } from "../fixtures/ssh-client";

let dir: string;
let server: RunningSshServer;
let owner: Profile;
let ownerCaller: Awaited<ReturnType<typeof callerFor>>;
let repo: { id: string; name: string };

const keygen = (name: string) => keygenIn(dir, name);

/** Runs git with GIT_SSH_COMMAND using `key`. */
function git(key: string, args: string[], cwd?: string): Promise<Run> {
  const env = {
    GIT_SSH_COMMAND: `ssh ${sshOpts(key).join(" ")} -p ${server.port}`,
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
  };
  return run("git", args, { cwd, env });
}
const url = (p: string) => `ssh://git@127.0.0.1:${server.port}/${p}`;

let ownerKey: string;
let n = 0;
/** Clones `repoPath` with `key` into a fresh directory; returns it. */
async function clone(key: string, repoPath: string): Promise<{ dir: string; result: Run }> {
  const target = path.join(dir, `clone-${++n}`);
  return { dir: target, result: await git(key, ["clone", "--quiet", url(repoPath), target]) };
}
async function commit(wt: string, file: string): Promise<void> {
  writeFileSync(path.join(wt, file), `${file}\n`);
  expect((await git(ownerKey, ["add", file], wt)).code).toBe(0);
  expect((await git(ownerKey, ["commit", "--quiet", "-m", file], wt)).code).toBe(0);
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "svc-sshgit-"));
  server = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(dir, "hostkeys") });
  owner = await makeUser("sshowner");
  ownerCaller = await callerFor(actorOf(owner));
  repo = await ownerCaller.repos.create({ name: "ssh-repo", isPrivate: true });
  ownerKey = keygen("owner");
  await ownerCaller.sshKeys.add({ title: "laptop", publicKey: pub(ownerKey) });
});
afterAll(async () => {
  await server?.close();
});

describe("git over SSH", () => {
  it("host keys are generated once, mode 0600, and reused", async () => {
    const f = path.join(dir, "hostkeys", "ssh_host_ed25519_key");
    expect(statSync(f).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, "hostkeys", "ssh_host_rsa_key")).mode & 0o777).toBe(0o600);
    const before = readFileSync(f, "utf8");
    const again = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(dir, "hostkeys") });
    await again.close();
    expect(readFileSync(f, "utf8")).toBe(before);
  });

  it("a user key clones and pushes (paths with and without .git), and its last use is recorded", async () => {
    const a = await clone(ownerKey, `${owner.username}/ssh-repo.git`);
    expect(a.result.code, a.result.stderr).toBe(0);
    await commit(a.dir, "one.txt");
    const pushed = await git(ownerKey, ["push", "--quiet", "origin", "HEAD:main"], a.dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    const b = await clone(ownerKey, `${owner.username}/ssh-repo`);
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(readFileSync(path.join(b.dir, "one.txt"), "utf8")).toBe("one.txt\n");
    const scp = await run("git", ["clone", "--quiet", `git@127.0.0.1:${owner.username}/ssh-repo.git`, path.join(dir, "scp")], {
      env: { GIT_SSH_COMMAND: `ssh ${sshOpts(ownerKey).join(" ")} -p ${server.port}` },
    });
    expect(scp.code, scp.stderr).toBe(0);
    const archive = await git(ownerKey, ["archive", `--remote=${url(`${owner.username}/ssh-repo.git`)}`, "main", "one.txt"]);
    expect(archive.code, archive.stderr).toBe(0);
    expect(archive.stdout).toContain("one.txt");
    const [key] = await ownerCaller.sshKeys.list();
    expect(key!.lastUsedAt).not.toBeNull();
    expect((await ownerCaller.repos.branches({ repoId: repo.id })).map((b: { name: string }) => b.name)).toContain("main");
  });

  it("refuses a shell and any other command with a message and exit status 1", async () => {
    const base = [...sshOpts(ownerKey), "-p", String(server.port), "git@127.0.0.1"];
    const shell = await run("ssh", ["-T", ...base]);
    expect(shell.code).toBe(1);
    expect(shell.stderr).toContain(`Hi ${owner.username}! svc does not provide shell access`);
    const ls = await run("ssh", [...base, "ls"]);
    expect(ls.code).toBe(1);
    expect(ls.stderr).toContain("this command is not allowed");
    const sneaky = await run("ssh", [...base, `git-upload-pack '${owner.username}/ssh-repo.git'; ls`]);
    expect(sneaky.code).toBe(1);
  });

  it("a stranger's key gets 'not found' for a private repository; an unknown key is refused", async () => {
    const stranger = await makeUser("sshstranger");
    const strangerKey = keygen("stranger");
    await (await callerFor(actorOf(stranger))).sshKeys.add({ title: "k", publicKey: pub(strangerKey) });
    const r = await clone(strangerKey, `${owner.username}/ssh-repo.git`);
    expect(r.result.code).not.toBe(0);
    expect(r.result.stderr).toContain(`repository ${owner.username}/ssh-repo not found`);
    const missing = await clone(strangerKey, `${owner.username}/no-such-repo.git`);
    expect(missing.result.stderr).toContain(`repository ${owner.username}/no-such-repo not found`);
    const unknown = await clone(keygen("unknown"), `${owner.username}/ssh-repo.git`);
    expect(unknown.result.code).not.toBe(0);
    expect(unknown.result.stderr).toContain("Permission denied (publickey)");
  });

  it("a read-only deploy key clones but cannot push; a write deploy key pushes; neither reaches other repositories", async () => {
    const ro = keygen("deploy-ro");
    const rw = keygen("deploy-rw");
    await ownerCaller.repos.deployKeys.add({ repoId: repo.id, title: "ci", publicKey: pub(ro), readOnly: true });
    await ownerCaller.repos.deployKeys.add({ repoId: repo.id, title: "release", publicKey: pub(rw), readOnly: false });
    const a = await clone(ro, `${owner.username}/ssh-repo.git`);
    expect(a.result.code, a.result.stderr).toBe(0);
    await commit(a.dir, "ro.txt");
    const refused = await git(ro, ["push", "--quiet", "origin", "HEAD:main"], a.dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("deploy key");
    expect(refused.stderr).toContain("read-only");
    const b = await clone(rw, `${owner.username}/ssh-repo.git`);
    await commit(b.dir, "rw.txt");
    const ok = await git(rw, ["push", "--quiet", "origin", "HEAD:main"], b.dir);
    expect(ok.code, ok.stderr).toBe(0);
    await ownerCaller.repos.create({ name: "ssh-other", isPrivate: false });
    const other = await clone(rw, `${owner.username}/ssh-other.git`);
    expect(other.result.stderr).toContain(`repository ${owner.username}/ssh-other not found`);
  });

  it("branch protection refuses a push over SSH as over HTTP", async () => {
    await ownerCaller.branchProtection.upsert({ repoId: repo.id, pattern: "main", requirePullRequest: true, enforceAdmins: true });
    const a = await clone(ownerKey, `${owner.username}/ssh-repo.git`);
    await commit(a.dir, "direct.txt");
    const r = await git(ownerKey, ["push", "--quiet", "origin", "HEAD:main"], a.dir);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("main is protected: changes must go through a pull request");
    expect((await git(ownerKey, ["push", "--quiet", "origin", "HEAD:feature"], a.dir)).code).toBe(0);
  });

  it("a transferred repository's former path still serves its owner and its deploy key, saying where it went; strangers get not found", async () => {
    const moving = await ownerCaller.repos.create({ name: "ssh-moving", isPrivate: true });
    const deploy = keygen("deploy-moving");
    await ownerCaller.repos.deployKeys.add({ repoId: moving.id, title: "ci", publicKey: pub(deploy), readOnly: false });
    const a = await clone(ownerKey, `${owner.username}/ssh-moving.git`);
    await commit(a.dir, "before.txt");
    expect((await git(ownerKey, ["push", "--quiet", "origin", "HEAD:main"], a.dir)).code).toBe(0);
    const org = `${owner.username}-org`;
    await ownerCaller.orgs.create({ name: org });
    await ownerCaller.repos.transfer({ repoId: moving.id, newOwner: org });

    // the old remote keeps working (no redirect in SSH): the push lands at the new path
    await commit(a.dir, "after.txt");
    const pushed = await git(ownerKey, ["push", "origin", "HEAD:main"], a.dir);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stderr).toContain(`this repository moved to ${org}/ssh-moving`);
    const b = await clone(deploy, `${owner.username}/ssh-moving.git`);
    expect(b.result.code, b.result.stderr).toBe(0);
    expect(readFileSync(path.join(b.dir, "after.txt"), "utf8")).toBe("after.txt\n");
    // a deploy key follows only its own repository's redirect; a stranger learns nothing
    const other = keygen("deploy-other");
    await ownerCaller.repos.deployKeys.add({ repoId: repo.id, title: "other", publicKey: pub(other), readOnly: true });
    expect((await clone(other, `${owner.username}/ssh-moving.git`)).result.stderr).toContain(
      `repository ${owner.username}/ssh-moving not found`,
    );
    const stranger = await makeUser("sshmovestranger");
    const strangerKey = keygen("stranger-moving");
    await (await callerFor(actorOf(stranger))).sshKeys.add({ title: "k", publicKey: pub(strangerKey) });
    const refused = await clone(strangerKey, `${owner.username}/ssh-moving.git`);
    expect(refused.result.stderr).toContain(`repository ${owner.username}/ssh-moving not found`);
    expect(refused.result.stderr).not.toContain(org);
  });
});

describe("SSH server stop", () => {
  it("close(grace) refuses new connections at once and cuts open ones after the grace", async () => {
    const s = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(dir, "hostkeys") });
    const open = net.connect(s.port, "127.0.0.1");
    open.on("error", () => {});
    await new Promise((r) => open.once("data", r));
    const started = Date.now();
    const closed = s.close(300);
    const late = net.connect(s.port, "127.0.0.1");
    const refused = await new Promise<boolean>((r) => {
      late.once("error", () => r(true));
      late.once("data", () => r(false));
    });
    expect(refused).toBe(true);
    expect(await closedWithin(open, 3000)).toBe(true);
    await closed;
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe("parseGitCommand", () => {
  it("accepts git's three commands with quoted paths, leading slash, without .git; refuses the rest", () => {
    expect(parseGitCommand("git-upload-pack 'ann/repo.git'")).toEqual({ service: "git-upload-pack", owner: "ann", name: "repo" });
    expect(parseGitCommand("git-receive-pack '/ann/repo'")).toEqual({ service: "git-receive-pack", owner: "ann", name: "repo" });
    expect(parseGitCommand("git upload-archive 'ann/repo.git'")).toEqual({ service: "git-upload-archive", owner: "ann", name: "repo" });
    for (const bad of [
      "ls",
      "git-upload-pack",
      "git-upload-pack '--help'",
      "git-upload-pack 'a/b' extra",
      "git-upload-pack 'a/b/c'",
      "git-shell",
      "git-upload-pack '../x/y'",
    ])
      expect(parseGitCommand(bad)).toHaveProperty("problem");
  });
});

describe("sshCloneUrl", () => {
  it("is null without SVC_SSH_PORT, ssh:// with a port, scp-like on 22, host from SVC_SSH_HOST or the public URL", () => {
    expect(sshCloneUrl("ann", "app", "https://git.example.com", {})).toBeNull();
    expect(sshCloneUrl("ann", "app", "https://git.example.com:8443", { SVC_SSH_PORT: "2222" })).toBe(
      "ssh://git@git.example.com:2222/ann/app.git",
    );
    expect(sshCloneUrl("ann", "app", "https://git.example.com", { SVC_SSH_PORT: "22", SVC_SSH_HOST: "ssh.example.com" })).toBe(
      "git@ssh.example.com:ann/app.git",
    );
  });
});
