/**
 * Push policy end to end (docs/git-http.md "Refused pushes: ref names and push protection
 * (pre-receive)"): the real git CLI pushes through
 * startServer + handleGitHttp; receive-pack runs svc's pre-receive hook, which asks this
 * process over its socket. Refused ref names, push protection for live tokens and private key
 * blocks (and `-o allow-secret`), look-alike tokens, legacy tokens, and the hook failing closed.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { receivePackHook } from "@/server/http/git/push-hook";
import { checkPush } from "@/server/services/repos/push-policy";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { repoGitDir } from "@/server/git/paths";
import { hashToken, randomBase62 } from "@/server/services/tokens/token-format";
import { revokeToken } from "@/server/services/tokens/manage-tokens";
import { isLiveToken, verifyPersonalAccessToken } from "@/server/services/tokens/verify-token";
import type { Profile } from "@/server/services/users/profile";
import { gitClient, type GitRun } from "../fixtures/clients";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-push-policy-"));
const home = path.join(tmpRoot, "home");
mkdirSync(home);
let dirCounter = 0;

type Run = GitRun;

function git(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return gitClient(["-c", "credential.helper=", ...args], { cwd: opts.cwd ?? tmpRoot, home, env: opts.env, input: "" });
}

async function gitOk(args: string[], opts: Parameters<typeof git>[1] = {}): Promise<string> {
  const r = await git(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** A private key block built at run time (so this file holds no armour line). */
function keyBlock(): string {
  const body = randomBytes(240)
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return `-----BEGIN ${"OPENSSH"} PRIVATE KEY-----\n${body}\n-----END ${"OPENSSH"} PRIVATE KEY-----\n`;
}

describe("push policy (pre-receive)", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let owner: Profile;
  let token: string;
  let port: string;

  const url = (name: string) => `http://git:${token}@127.0.0.1:${port}/${owner.username}/${name}.git`;

  /** A new server repository and a local work tree with one commit on main. */
  async function setup(name: string): Promise<{ dir: string; gitDir: string; remote: string }> {
    await (await callerFor(actorOf(owner))).repos.create({ name });
    dirCounter += 1;
    const dir = path.join(tmpRoot, `${name}-${dirCounter}`);
    await gitOk(["init", "--quiet", "--initial-branch=main", dir]);
    writeFileSync(path.join(dir, "README.md"), "# hello\n");
    await gitOk(["add", "."], { cwd: dir });
    await gitOk(["commit", "--quiet", "-m", "first"], { cwd: dir });
    return { dir, gitDir: repoGitDir(owner.username, name), remote: url(name) };
  }

  async function commitFile(dir: string, file: string, content: string): Promise<void> {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), content);
    await gitOk(["add", "."], { cwd: dir });
    await gitOk(["commit", "--quiet", "-m", `add ${file}`], { cwd: dir });
  }

  async function serverRefs(gitDir: string): Promise<string[]> {
    return (await gitOk(["--git-dir", gitDir, "for-each-ref", "--format=%(refname)"])).split("\n").filter(Boolean).sort();
  }

  beforeAll(async () => {
    server = await startServer({ git: handleGitHttp });
    port = new URL(server.url).port;
    owner = await makeUser("pusher");
    token = await makeToken(owner);
  });

  afterAll(async () => {
    await server.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it("refuses branch and ref names the app cannot serve, with the reason on the client, and creates no ref", async () => {
    const { dir, gitDir, remote } = await setup("names");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
    const cases: [string, RegExp][] = [
      ["HEAD:refs/heads/-x", /remote: error: refusing "refs\/heads\/-x": a branch name cannot start with "-"/],
      ["HEAD:refs/heads/HEAD", /remote: error: refusing "refs\/heads\/HEAD": "HEAD" cannot be a branch name/],
      ["HEAD:refs/pull/1/head", /remote: error: refusing "refs\/pull\/1\/head": refs\/pull\/ is reserved for pull requests/],
      ["HEAD:refs/tags/-v1", /remote: error: refusing "refs\/tags\/-v1": a tag name cannot start with "-"/],
      ["HEAD:refs/notes/commits", /remote: error: refusing "refs\/notes\/commits": svc accepts only branches/],
    ];
    for (const [spec, message] of cases) {
      const r = await git(["push", remote, spec], { cwd: dir });
      expect(r.code, spec).not.toBe(0);
      expect(r.stderr, spec).toMatch(message);
      expect(r.stderr, spec).toMatch(/! \[remote rejected\]/);
    }
    // all or nothing: a valid branch in the same push is not created either
    const mixed = await git(["push", remote, "HEAD:refs/heads/ok", "HEAD:refs/heads/-y"], { cwd: dir });
    expect(mixed.code).not.toBe(0);
    expect(await serverRefs(gitDir)).toEqual(["refs/heads/main"]);

    // valid branches and tags still work
    await gitOk(["tag", "v1.0"], { cwd: dir });
    await gitOk(["push", "--quiet", remote, "HEAD:refs/heads/feature/x", "v1.0"], { cwd: dir });
    expect(await serverRefs(gitDir)).toEqual(["refs/heads/feature/x", "refs/heads/main", "refs/tags/v1.0"]);
  }, 120_000);

  it("allows deleting a badly named ref made before the rule, but never refs/pull/", async () => {
    const { dir, gitDir, remote } = await setup("cleanup");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
    const sha = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    await gitOk(["--git-dir", gitDir, "update-ref", "refs/heads/-old", sha]);
    await gitOk(["--git-dir", gitDir, "update-ref", "refs/pull/7/head", sha]);
    await gitOk(["push", "--quiet", remote, ":refs/heads/-old"], { cwd: dir });
    const r = await git(["push", remote, ":refs/pull/7/head"], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(await serverRefs(gitDir)).toEqual(["refs/heads/main", "refs/pull/7/head"]);
  }, 120_000);

  it("a first push of only an invalid branch leaves the repository empty and still served", async () => {
    const { dir, remote } = await setup("first-invalid");
    const r = await git(["push", remote, "HEAD:refs/heads/-x"], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/remote: error: refusing "refs\/heads\/-x"/);
    const repo = await (await callerFor(actorOf(owner))).repos.get({ owner: owner.username, name: "first-invalid" });
    expect(repo.isEmpty).toBe(true);
    expect((await gitOk(["ls-remote", remote])).trim()).toBe("");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
    expect((await gitOk(["ls-remote", remote])).trim()).toMatch(/refs\/heads\/main$/);
  }, 120_000);

  it("refuses a push adding a token valid here, with file:line and never the token; -o allow-secret lets it through", async () => {
    const { dir, gitDir, remote } = await setup("leak");
    const leaked = await makeToken(owner, ["repo:read"]);
    await commitFile(dir, "config/app.env", `NAME=demo\nURL=http://x\nTOKEN=${leaked}\n`);
    await commitFile(dir, "notes.txt", "nothing here\n");
    const r = await git(["push", remote, "main"], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/remote: error: push protection: this push adds secrets/);
    expect(r.stderr).toMatch(/remote: error: {3}config\/app\.env:3 {2}svc personal access token/);
    expect(r.stderr).toMatch(/git push -o allow-secret/);
    expect(r.stderr).not.toContain(leaked);
    expect(await serverRefs(gitDir)).toEqual([]);

    const ok = await git(["push", "-o", "allow-secret", remote, "main"], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stderr).toMatch(/remote: warning: push protection: secrets allowed by -o allow-secret/);
    expect(await serverRefs(gitDir)).toEqual(["refs/heads/main"]);

    // once the secret is in the repository, later pushes are not refused for it
    await commitFile(dir, "more.txt", "more\n");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
  }, 120_000);

  it("accepts look-alikes, revoked and expired tokens; catches legacy tokens without a checksum", async () => {
    const { dir, remote } = await setup("lookalike");
    const revoked = await makeToken(owner);
    await revokeToken(await getDb(), owner.id, revoked.slice(4, 12));
    const expired = await makeToken(owner, ["repo:read"], 1);
    await (
      await getDb()
    ).accessToken.updateMany({ where: { prefix: expired.slice(4, 12) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const lookalike = `svc_${randomBase62(8)}_${randomBase62(46)}`; // checksum almost surely wrong
    await commitFile(
      dir,
      "src/test.ts",
      `const a = "${lookalike}";\nconst b = "${revoked}";\nconst c = "svc_AAAAAAAA_${"b".repeat(40)}";\nconst d = "${expired}";\n`,
    );
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });

    // a token made before the checksum existed: 40 random characters, stored by hash
    const prefix = randomBase62(8);
    const legacy = `svc_${prefix}_${randomBase62(40)}`;
    await (
      await getDb()
    ).accessToken.create({ data: { userId: owner.id, name: "legacy", prefix, tokenHash: hashToken(legacy), scopes: "repo:read" } });
    expect(await verifyPersonalAccessToken(await getDb(), legacy)).toMatchObject({ userId: owner.id });
    expect(await isLiveToken(await getDb(), legacy)).toBe(true);
    // a current-length token with a wrong checksum is refused before any lookup
    await expect(verifyPersonalAccessToken(await getDb(), lookalike)).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      message: "invalid token",
    });
    expect(await isLiveToken(await getDb(), lookalike)).toBe(false);
    await commitFile(dir, "deploy/ci.yml", `steps:\n  - run: curl -H "Authorization: Bearer ${legacy}" http://x\n`);
    const r = await git(["push", remote, "main"], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/deploy\/ci\.yml:2 {2}svc personal access token/);
  }, 120_000);

  it("refuses a private key block (not the armour line alone) in a new branch, with the line of the block", async () => {
    const { dir, gitDir, remote } = await setup("keys");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
    await gitOk(["checkout", "--quiet", "-b", "topic"], { cwd: dir });
    await commitFile(dir, "docs/pem.md", `Keys start with the line \`-----BEGIN ${"RSA"} PRIVATE KEY-----\`.\n`);
    await gitOk(["push", "--quiet", remote, "topic"], { cwd: dir });
    await commitFile(dir, "deploy/id key", `# deploy key\n\n${keyBlock()}`);
    const r = await git(["push", remote, "topic"], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/remote: error: {3}deploy\/id key:3 {2}private key/);
    // one-line JSON form (service account files)
    await gitOk(["reset", "--quiet", "--hard", "HEAD~1"], { cwd: dir });
    await commitFile(dir, "sa.json", `{"private_key": ${JSON.stringify(keyBlock())}}\n`);
    const j = await git(["push", remote, "topic"], { cwd: dir });
    expect(j.stderr).toMatch(/remote: error: {3}sa\.json:1 {2}private key/);
    const shaOnServer = (await gitOk(["--git-dir", gitDir, "rev-parse", "refs/heads/topic"])).trim();
    expect(shaOnServer).toBe((await gitOk(["rev-parse", "HEAD~1"], { cwd: dir })).trim());
  }, 120_000);

  it("the hook fails closed: started without svc, svc unreachable, unknown or released key", async () => {
    const { dir, gitDir, remote } = await setup("closed");
    await gitOk(["push", "--quiet", remote, "main"], { cwd: dir });
    const sha = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    const hook = path.join(getConfig().appRoot, "server", "http", "git", "hooks", "pre-receive");
    const runHook = (env: Record<string, string>) =>
      new Promise<Run>((resolve, reject) => {
        const child = spawn(hook, [], {
          cwd: gitDir,
          env: { PATH: process.env.PATH, ...env } as Record<string, string | undefined> as NodeJS.ProcessEnv,
        });
        const err: Buffer[] = [];
        child.stderr.on("data", (c: Buffer) => err.push(c));
        child.stdout.resume();
        child.on("error", reject);
        child.stdin.end(`${"0".repeat(40)} ${sha} refs/heads/other\n`);
        child.on("close", (code) => resolve({ code: code ?? 1, stdout: "", stderr: Buffer.concat(err).toString("utf8") }));
      });
    expect(await runHook({})).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/svc could not check this push \(the hook was started without svc\)/),
    });
    const gone = await runHook({ SVC_HOOK_SOCKET: path.join(tmpRoot, "nothing.sock"), SVC_HOOK_KEY: "k" });
    expect(gone).toMatchObject({ code: 1, stderr: expect.stringMatching(/svc is unreachable: ENOENT/) });

    const h = await receivePackHook(gitDir, false);
    expect(h.args).toEqual(["-c", "receive.advertisePushOptions=true", "-c", `core.hooksPath=${path.dirname(hook)}`]);
    const unknown = await runHook({ SVC_HOOK_SOCKET: h.env.SVC_HOOK_SOCKET, SVC_HOOK_KEY: "0".repeat(64) });
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/does not know this push/) });
    expect(await runHook({ SVC_HOOK_SOCKET: h.env.SVC_HOOK_SOCKET, SVC_HOOK_KEY: h.env.SVC_HOOK_KEY })).toMatchObject({ code: 0 });
    h.release();
    expect((await runHook({ SVC_HOOK_SOCKET: h.env.SVC_HOOK_SOCKET, SVC_HOOK_KEY: h.env.SVC_HOOK_KEY })).code).toBe(1);
  }, 120_000);

  it("scans at most the byte budget, says so, and names quoted paths as they are", async () => {
    const { dir } = await setup("budget");
    const leaked = await makeToken(owner, ["repo:read"]);
    const name = "dir/ünï tab\there.txt";
    mkdirSync(path.join(dir, "dir"));
    writeFileSync(path.join(dir, "big.txt"), "x".repeat(100) + "\n".repeat(1) + "filler line\n".repeat(20_000));
    writeFileSync(path.join(dir, name), `one\ntwo ${leaked}\n`);
    await gitOk(["add", "."], { cwd: dir });
    // a commit no ref points to: new to the repository, as pushed objects are
    const tree = (await gitOk(["write-tree"], { cwd: dir })).trim();
    const commit = (await gitOk(["commit-tree", tree, "-p", "HEAD", "-m", "unreferenced"], { cwd: dir })).trim();
    const input = {
      gitDir: path.join(dir, ".git"),
      input: `${"0".repeat(40)} ${commit} refs/heads/new\n`,
      pushOptions: [],
      quarantine: null,
    };
    const full = await checkPush(await getDb(), input);
    expect(full.ok).toBe(false);
    expect(full.messages).toContain(`error:   ${name}:2  svc personal access token (valid on this server) (commit ${commit.slice(0, 10)})`);
    const cut = await checkPush(await getDb(), { ...input, maxScanBytes: 64 * 1024 });
    expect(cut.ok).toBe(true);
    expect(cut.messages).toEqual([
      expect.stringMatching(/^warning: secret scanning stopped after 65536 bytes of changes; the rest of this push was not scanned$/),
    ]);
    // a quarantine outside the repository is refused
    await expect(checkPush(await getDb(), { ...input, quarantine: os.tmpdir() })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  }, 120_000);
});
