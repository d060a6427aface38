/**
 * Git smart HTTP end to end: the real git CLI against handleGitHttp served by startServer, real
 * database and repositories on disk. Covers push/clone round trips (a generated fixture and this
 * project's own history), the 401/403/404 answers, anonymous reads, collaborators, gzip bodies
 * and malformed requests.
 */
import { describe, expect, it, beforeAll, afterAll } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { getDb } from "@/server/db";
import { getConfig } from "@/server/config";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { pktLine } from "@/server/git/pkt-line";
import { revokeToken, createToken } from "@/server/services/tokens/manage-tokens";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { gitClient, type GitRun } from "../fixtures/clients";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-git-http-"));
const home = path.join(tmpRoot, "home");
let dirCounter = 0;
function tmpDir(name: string): string {
  dirCounter += 1;
  return path.join(tmpRoot, `${name}-${dirCounter}`);
}

type Run = GitRun;

/** Runs the git CLI asynchronously with an isolated configuration (the server under test lives in this process). */
function git(args: string[], opts: { cwd?: string; input?: Buffer | string; env?: Record<string, string> } = {}): Promise<Run> {
  return gitClient(args, { cwd: opts.cwd ?? tmpRoot, home, env: opts.env, input: opts.input ?? "" });
}

async function gitOk(args: string[], opts: Parameters<typeof git>[1] = {}): Promise<string> {
  const r = await git(["-c", "credential.helper=", ...args], opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** "<sha> <ref>" lines of every ref, sorted. */
async function refsOf(gitDir: string): Promise<string[]> {
  return (await gitOk(["--git-dir", gitDir, "for-each-ref", "--format=%(objectname) %(refname)"])).split("\n").filter(Boolean).sort();
}

const BINARY = randomBytes(70_000);
BINARY[10] = 0; // a NUL: binary for git and for readBlob
const UNICODE_DIR = "docs/ünïcödé";
const UNICODE_FILE = "日本語 ファイル.md";

/**
 * A bare repository built with git fast-import: 60 commits on main (nested directories, a binary
 * file, unicode and space-containing paths, an executable and a symlink), a branch feature/x
 * with 3 more commits, a lightweight and an annotated tag.
 */
async function buildFixture(): Promise<string> {
  const dir = tmpDir("fixture.git");
  await gitOk(["init", "--bare", "--quiet", "--initial-branch=main", dir]);
  const parts: Buffer[] = [];
  const w = (s: string) => parts.push(Buffer.from(s, "utf8"));
  const data = (content: Buffer | string) => {
    const b = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    w(`data ${b.length}\n`);
    parts.push(b);
    w("\n");
  };
  let t = 1_700_000_000;
  const commit = (ref: string, mark: number, from: number | null, message: string, files: [string, string, Buffer | string][]) => {
    w(`commit ${ref}\nmark :${mark}\n`);
    w(`author Ada Lovelace <ada@example.com> ${t} +0000\ncommitter Ada Lovelace <ada@example.com> ${t} +0000\n`);
    t += 60;
    data(message);
    if (from !== null) w(`from :${from}\n`);
    for (const [mode, p, content] of files) {
      w(`M ${mode} inline ${p}\n`);
      data(content);
    }
    w("\n");
  };
  for (let i = 1; i <= 60; i++) {
    const files: [string, string, Buffer | string][] = [
      ["100644", `src/level${i % 3}/deep/er/file${i}.ts`, `export const n${i} = ${i};\n`],
      ["100644", "README.md", `# Fixture\n\nRevision ${i}.\n`],
      ["100644", `${UNICODE_DIR}/${UNICODE_FILE}`, `Ünïcödé revision ${i} — 日本語\n`],
      ["100644", "dir with space/notes.txt", `notes ${i}\n`],
    ];
    if (i === 1 || i % 10 === 0) files.push(["100644", "assets/image.bin", i === 60 ? BINARY : randomBytes(1000)]);
    if (i === 1) files.push(["100755", "bin/run.sh", "#!/bin/sh\necho hi\n"], ["120000", "link-to-readme", "README.md"]);
    commit("refs/heads/main", i, i === 1 ? null : i - 1, `Commit ${i}\n\nBody of commit ${i}.\n`, files);
  }
  for (let i = 61; i <= 63; i++)
    commit("refs/heads/feature/x", i, i === 61 ? 40 : i - 1, `Feature ${i}\n`, [["100644", `feature/f${i}.txt`, `f${i}\n`]]);
  w("reset refs/tags/v1.0\nfrom :30\n\n");
  w(`tag v2.0\nfrom :60\ntagger Ada Lovelace <ada@example.com> ${t} +0000\n`);
  data("Version 2.0\n");
  w("done\n");
  await gitOk(["--git-dir", dir, "fast-import", "--quiet", "--done"], { input: Buffer.concat(parts) });
  return dir;
}

describe("git smart HTTP", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let port: string;
  const encodings: (string | null)[] = [];
  let owner: Profile;
  let ownerToken: string;
  let fixture: string;
  let fixtureRefs: string[];

  const url = (o: string, name: string, token?: string, user = "git") =>
    token ? `http://${user}:${token}@127.0.0.1:${port}/${o}/${name}.git` : `http://127.0.0.1:${port}/${o}/${name}.git`;

  async function newRepo(user: Profile, name: string, isPrivate = false) {
    return (await callerFor(actorOf(user))).repos.create({ name, isPrivate });
  }

  async function pushFixture(o: string, name: string, token: string): Promise<Run> {
    return git([
      "-c",
      "credential.helper=",
      "--git-dir",
      fixture,
      "push",
      "--porcelain",
      url(o, name, token),
      "refs/heads/*:refs/heads/*",
      "refs/tags/*:refs/tags/*",
    ]);
  }

  beforeAll(async () => {
    server = await startServer({
      git: (req, o, r, rest) => {
        if (req.method === "POST") encodings.push(req.headers.get("content-encoding"));
        return handleGitHttp(req, o, r, rest);
      },
    });
    port = new URL(server.url).port;
    owner = await makeUser("owner");
    ownerToken = await makeToken(owner);
    fixture = await buildFixture();
    fixtureRefs = await refsOf(fixture);
  });

  afterAll(async () => {
    await server.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it("pushes a 60-commit fixture with a PAT, clones it back identical, fsck clean, visible through the API", async () => {
    const repo = await newRepo(owner, "fixture");
    const push = await pushFixture(owner.username, "fixture", ownerToken);
    expect(push.code, push.stderr).toBe(0);

    // the server's bare repository: same refs, clean fsck
    const serverDir = path.join(getConfig().dataDir, "repos", owner.username.toLowerCase(), "fixture.git");
    expect(await refsOf(serverDir)).toEqual(fixtureRefs);
    expect((await git(["--git-dir", serverDir, "fsck", "--full", "--strict"])).code).toBe(0);

    // mirror clone: every ref identical
    const mirror = tmpDir("mirror.git");
    await gitOk(["clone", "--mirror", "--no-local", "--quiet", url(owner.username, "fixture", ownerToken), mirror]);
    expect(await refsOf(mirror)).toEqual(fixtureRefs);
    const fsckMirror = await git(["--git-dir", mirror, "fsck", "--full", "--strict"]);
    expect(fsckMirror.code, fsckMirror.stderr).toBe(0);

    // working clone: HEAD on main at the same sha, files intact
    const work = tmpDir("work");
    await gitOk(["clone", "--no-local", "--quiet", url(owner.username, "fixture", ownerToken), work]);
    const mainSha = (await gitOk(["--git-dir", fixture, "rev-parse", "refs/heads/main"])).trim();
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim()).toBe(mainSha);
    expect((await gitOk(["symbolic-ref", "HEAD"], { cwd: work })).trim()).toBe("refs/heads/main");
    expect((await gitOk(["rev-parse", "origin/feature/x"], { cwd: work })).trim()).toBe(
      (await gitOk(["--git-dir", fixture, "rev-parse", "refs/heads/feature/x"])).trim(),
    );
    expect((await gitOk(["rev-list", "--count", "HEAD"], { cwd: work })).trim()).toBe("60");
    expect(readFileSync(path.join(work, "assets/image.bin")).equals(BINARY)).toBe(true);
    expect(readFileSync(path.join(work, UNICODE_DIR, UNICODE_FILE), "utf8")).toBe("Ünïcödé revision 60 — 日本語\n");
    expect(existsSync(path.join(work, "src/level2/deep/er/file59.ts"))).toBe(true);
    const fsckWork = await git(["fsck", "--full", "--strict"], { cwd: work });
    expect(fsckWork.code, fsckWork.stderr).toBe(0);
    expect((await gitOk(["status", "--porcelain"], { cwd: work })).trim()).toBe("");

    // the API sees the pushed content
    const caller = await callerFor(actorOf(owner));
    const got = await caller.repos.get({ owner: owner.username, name: "fixture" });
    expect(got.isEmpty).toBe(false);
    expect(got.pushedAt).not.toBeNull();
    expect(Date.parse(got.updatedAt)).toBeGreaterThanOrEqual(Date.parse(repo.updatedAt));
    const root = await caller.repos.tree({ repoId: repo.id });
    expect(root.sha).toBe(mainSha);
    expect(root.entries.map((e) => e.name)).toEqual(
      expect.arrayContaining(["src", "docs", "assets", "dir with space", "README.md", "bin", "link-to-readme"]),
    );
    const uni = await caller.repos.tree({ repoId: repo.id, path: UNICODE_DIR });
    expect(uni.entries.map((e) => e.name)).toEqual([UNICODE_FILE]);
    const deep = await caller.repos.tree({ repoId: repo.id, path: "src/level0/deep/er" });
    expect(deep.entries).toHaveLength(20);
    const text = await caller.repos.blob({ repoId: repo.id, path: `${UNICODE_DIR}/${UNICODE_FILE}` });
    expect(text).toMatchObject({ isBinary: false, text: "Ünïcödé revision 60 — 日本語\n" });
    const bin = await caller.repos.blob({ repoId: repo.id, path: "assets/image.bin" });
    expect(bin).toMatchObject({ isBinary: true, size: BINARY.length, text: null });
    const commits = await caller.repos.commits({ repoId: repo.id, limit: 100 });
    expect(commits).toHaveLength(60);
    expect(commits[0]).toMatchObject({ sha: mainSha, message: "Commit 60\n\nBody of commit 60." });
    const onBranch = await caller.repos.commits({ repoId: repo.id, ref: "feature/x", limit: 100 });
    expect(onBranch).toHaveLength(43);
    const branches = await caller.repos.branches({ repoId: repo.id });
    expect(branches.map((b) => b.name)).toEqual(["feature/x", "main"]);

    // A fetch that must negotiate: the server's main moved (pushed from a second clone) and the
    // local clone has 300 commits the server lacks, so git sends rounds of "have" lines; requests
    // over 1 KiB go out with Content-Encoding: gzip (remote-curl.c), in protocol v2 and v0.
    const other = tmpDir("other");
    await gitOk(["clone", "--quiet", url(owner.username, "fixture", ownerToken), other]);
    const local: string[] = [];
    for (let i = 1; i <= 300; i++) {
      local.push(
        `commit refs/heads/local\ncommitter L <l@example.com> ${1_800_000_000 + i} +0000\ndata 8\nlocal ${String(i).padStart(2, "0").slice(-2)}\n${i === 1 ? `from ${mainSha}\n` : ""}M 100644 inline local.txt\ndata ${String(i).length + 1}\n${i}\n\n`,
      );
    }
    await gitOk(["fast-import", "--quiet"], { cwd: work, input: local.join("") + "done\n" });
    for (const version of ["2", "0"]) {
      await gitOk(["commit", "--quiet", "--allow-empty", "-m", `moved on (v${version})`], { cwd: other });
      await gitOk(["push", "--quiet", "origin", "HEAD:main"], { cwd: other });
      const moved = (await gitOk(["rev-parse", "HEAD"], { cwd: other })).trim();
      encodings.length = 0;
      await gitOk(["-c", `protocol.version=${version}`, "fetch", "--quiet", "origin"], { cwd: work });
      expect((await gitOk(["rev-parse", "origin/main"], { cwd: work })).trim()).toBe(moved);
      expect(encodings, `protocol v${version}`).toContain("gzip");
    }
  });

  it("pushes this project's own git history and clones it back with the same HEAD", async (ctx) => {
    const top = await git(["rev-parse", "--show-toplevel"], { cwd: process.cwd() });
    const root = top.stdout.trim();
    const head = top.code === 0 ? await git(["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: root }) : null;
    if (!head || head.code !== 0) {
      ctx.skip(); // a checkout without commits: nothing to push
      return;
    }
    // A bare copy, so nothing is written into the project's repository.
    const copy = tmpDir("self.git");
    await gitOk(["clone", "--bare", "--no-local", "--quiet", root, copy]);
    const headSha = (await gitOk(["--git-dir", copy, "rev-parse", "HEAD"])).trim();
    const branch = (await gitOk(["--git-dir", copy, "symbolic-ref", "--short", "HEAD"])).trim();
    const repo = await newRepo(owner, "svc-self");
    const push = await git([
      "-c",
      "credential.helper=",
      "--git-dir",
      copy,
      "push",
      url(owner.username, "svc-self", ownerToken),
      `refs/heads/${branch}:refs/heads/main`,
      "refs/tags/*:refs/tags/*",
    ]);
    expect(push.code, push.stderr).toBe(0);

    const back = tmpDir("self-clone");
    await gitOk(["clone", "--no-local", "--quiet", url(owner.username, "svc-self", ownerToken), back]);
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: back })).trim()).toBe(headSha);
    expect((await gitOk(["rev-list", "--count", "HEAD"], { cwd: back })).trim()).toBe(
      (await gitOk(["--git-dir", copy, "rev-list", "--count", "HEAD"])).trim(),
    );
    const fsck = await git(["fsck", "--full"], { cwd: back });
    expect(fsck.code, fsck.stderr).toBe(0);

    const caller = await callerFor(actorOf(owner));
    const tree = await caller.repos.tree({ repoId: repo.id });
    expect(tree.sha).toBe(headSha);
    expect(tree.entries.map((e) => e.name)).toContain("package.json");
    const pkg = await caller.repos.blob({ repoId: repo.id, path: "package.json" });
    expect(JSON.parse(pkg.text!).name).toBe("svc");
  });

  it("answers 401 with a Basic challenge without credentials, 403 for a repo:read token, 401 for expired and revoked tokens", async () => {
    await newRepo(owner, "guarded");
    const advert = `${server.url}/${owner.username}/guarded.git/info/refs?service=git-receive-pack`;

    const anon = await fetch(advert);
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toMatch(/^Basic realm="svc"/);
    const noToken = await pushFixture(owner.username, "guarded", "");
    expect(noToken.code).not.toBe(0);
    expect(noToken.stderr).toMatch(/could not read Username|Authentication failed|401/);

    const readOnly = await makeToken(owner, ["repo:read"]);
    const basic = (t: string) => ({ authorization: `Basic ${Buffer.from(`git:${t}`).toString("base64")}` });
    const ro = await fetch(advert, { headers: basic(readOnly) });
    expect(ro.status).toBe(403);
    expect(await ro.text()).toMatch(/repo:write/);
    const roPush = await pushFixture(owner.username, "guarded", readOnly);
    expect(roPush.code).not.toBe(0);
    expect(roPush.stderr).toMatch(/403/);
    expect(roPush.stderr).toMatch(/repo:write/); // git prints text/plain bodies as "remote: …"
    // …while the same token can read
    expect(
      (await fetch(`${server.url}/${owner.username}/guarded.git/info/refs?service=git-upload-pack`, { headers: basic(readOnly) })).status,
    ).toBe(200);

    const db = await getDb();
    const expiring = await createToken(db, owner.id, { name: "soon", expiresInDays: 1 });
    await db.accessToken.update({ where: { id: expiring.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await fetch(advert, { headers: basic(expiring.token) });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await expired.text()).toMatch(/expired/);
    const expiredPush = await pushFixture(owner.username, "guarded", expiring.token);
    expect(expiredPush.code).not.toBe(0);
    expect(expiredPush.stderr).toMatch(/Authentication failed|401/);

    const revoked = await createToken(db, owner.id, { name: "gone" });
    await revokeToken(db, owner.id, revoked.id);
    expect((await fetch(advert, { headers: basic(revoked.token) })).status).toBe(401);
    const revokedPush = await pushFixture(owner.username, "guarded", revoked.token);
    expect(revokedPush.code).not.toBe(0);
    expect(revokedPush.stderr).toMatch(/Authentication failed|401/);

    // nothing was pushed
    const caller = await callerFor(actorOf(owner));
    expect((await caller.repos.get({ owner: owner.username, name: "guarded" })).isEmpty).toBe(true);
  });

  it("private repository: 404 for a stranger with a valid token, 401 anonymous; the owner clones", async () => {
    await newRepo(owner, "secret", true);
    expect((await pushFixture(owner.username, "secret", ownerToken)).code).toBe(0);
    const stranger = await makeUser("stranger");
    const strangerToken = await makeToken(stranger);

    const strangerClone = await git([
      "-c",
      "credential.helper=",
      "clone",
      "--quiet",
      url(owner.username, "secret", strangerToken),
      tmpDir("s"),
    ]);
    expect(strangerClone.code).not.toBe(0);
    expect(strangerClone.stderr).toMatch(/not found|404/);
    const basic = { authorization: `Basic ${Buffer.from(`x:${strangerToken}`).toString("base64")}` };
    expect((await fetch(`${server.url}/${owner.username}/secret.git/info/refs?service=git-upload-pack`, { headers: basic })).status).toBe(
      404,
    );
    expect((await fetch(`${server.url}/${owner.username}/secret.git/info/refs?service=git-receive-pack`, { headers: basic })).status).toBe(
      404,
    );

    const anon = await fetch(`${server.url}/${owner.username}/secret.git/info/refs?service=git-upload-pack`);
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toMatch(/^Basic realm="svc"/);
    const anonClone = await git(["-c", "credential.helper=", "clone", "--quiet", url(owner.username, "secret"), tmpDir("a")]);
    expect(anonClone.code).not.toBe(0);
    expect(anonClone.stderr).toMatch(/could not read Username|401/);

    const dir = tmpDir("owner-secret");
    await gitOk(["clone", "--quiet", url(owner.username, "secret", ownerToken), dir]);
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(
      (await gitOk(["--git-dir", fixture, "rev-parse", "main"])).trim(),
    );
  });

  it("anonymous clone of a public repository works, anonymous push does not", async () => {
    await newRepo(owner, "open");
    expect((await pushFixture(owner.username, "open", ownerToken)).code).toBe(0);
    const dir = tmpDir("anon");
    await gitOk(["clone", "--quiet", url(owner.username, "open"), dir]);
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(
      (await gitOk(["--git-dir", fixture, "rev-parse", "main"])).trim(),
    );
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "anon"], { cwd: dir });
    const push = await git(["-c", "credential.helper=", "push", "origin", "HEAD:main"], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/could not read Username|401/);
  });

  it("a collaborator with write can push; read collaborators and read-only scopes get 403", async () => {
    const repo = await newRepo(owner, "team", true);
    expect((await pushFixture(owner.username, "team", ownerToken)).code).toBe(0);
    const writer = await makeUser("writer");
    const reader = await makeUser("reader");
    const ownerCaller = await callerFor(actorOf(owner));
    await ownerCaller.repos.addCollaborator({ repoId: repo.id, username: writer.username, role: "write" });
    await ownerCaller.repos.addCollaborator({ repoId: repo.id, username: reader.username, role: "read" });

    const dir = tmpDir("team");
    const writerToken = await makeToken(writer);
    await gitOk(["clone", "--quiet", url(owner.username, "team", writerToken), dir]);
    writeFileSync(path.join(dir, "from-writer.txt"), "hello\n");
    await gitOk(["add", "from-writer.txt"], { cwd: dir });
    await gitOk(["commit", "--quiet", "-m", "writer commit"], { cwd: dir });
    const before = (await ownerCaller.repos.get({ owner: owner.username, name: "team" })).pushedAt!;
    await gitOk(["push", "--quiet", "origin", "HEAD:main", "HEAD:refs/heads/writer/topic"], { cwd: dir });
    const local = (await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim();
    expect((await ownerCaller.repos.branches({ repoId: repo.id })).find((b) => b.name === "main")?.sha).toBe(local);
    const after = (await ownerCaller.repos.get({ owner: owner.username, name: "team" })).pushedAt!;
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
    // the reflog names the pusher
    const serverDir = path.join(getConfig().dataDir, "repos", owner.username.toLowerCase(), "team.git");
    expect(await gitOk(["--git-dir", serverDir, "log", "-g", "--format=%gn", "-1", "refs/heads/main"])).toContain(writer.username);

    const readerToken = await makeToken(reader);
    const readerDir = tmpDir("reader");
    await gitOk(["clone", "--quiet", url(owner.username, "team", readerToken), readerDir]);
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "reader"], { cwd: readerDir });
    const refused = await git(["-c", "credential.helper=", "push", "origin", "HEAD:main"], { cwd: readerDir });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/403/);
    expect(refused.stderr).toMatch(/write permission/);

    // deleting a branch is a push too
    await gitOk(["push", "--quiet", "origin", ":refs/heads/writer/topic"], { cwd: dir });
    expect((await ownerCaller.repos.branches({ repoId: repo.id })).map((b) => b.name)).not.toContain("writer/topic");
  });

  it("never creates a repository: pushing to an unknown one is 404 (401 anonymous)", async () => {
    const push = await pushFixture(owner.username, "does-not-exist", ownerToken);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/not found|404/);
    const basic = { authorization: `Basic ${Buffer.from(`x:${ownerToken}`).toString("base64")}` };
    const res = await fetch(`${server.url}/${owner.username}/does-not-exist.git/info/refs?service=git-receive-pack`, { headers: basic });
    expect(res.status).toBe(404);
    const post = await fetch(`${server.url}/${owner.username}/does-not-exist.git/git-receive-pack`, {
      method: "POST",
      headers: { ...basic, "content-type": "application/x-git-receive-pack-request" },
      body: "0000",
    });
    expect(post.status).toBe(404);
    expect((await fetch(`${server.url}/nobody-here/x.git/info/refs?service=git-upload-pack`)).status).toBe(401);
    expect((await fetch(`${server.url}/nobody-here/x.git/info/refs?service=git-upload-pack`, { headers: basic })).status).toBe(404);
    expect(existsSync(path.join(getConfig().dataDir, "repos", owner.username.toLowerCase(), "does-not-exist.git"))).toBe(false);
    expect(await (await getDb()).repository.count({ where: { nameLower: "does-not-exist" } })).toBe(0);
  });

  it("accepts gzip request bodies (hand-made) and protocol v2 requests", async () => {
    await newRepo(owner, "zipped");
    expect((await pushFixture(owner.username, "zipped", ownerToken)).code).toBe(0);
    const mainSha = (await gitOk(["--git-dir", fixture, "rev-parse", "main"])).trim();
    const endpoint = `${server.url}/${owner.username}/zipped.git/git-upload-pack`;
    const headers = { "content-type": "application/x-git-upload-pack-request", "git-protocol": "version=2" };
    const lsRefs = Buffer.concat([
      pktLine("command=ls-refs\n"),
      Buffer.from("0001"),
      pktLine("peel\n"),
      pktLine("ref-prefix refs/heads/\n"),
      Buffer.from("0000"),
    ]);

    const plain = await fetch(endpoint, { method: "POST", headers, body: lsRefs });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toBe("application/x-git-upload-pack-result");
    const plainText = await plain.text();
    expect(plainText).toContain(`${mainSha} refs/heads/main`);

    const zipped = await fetch(endpoint, { method: "POST", headers: { ...headers, "content-encoding": "gzip" }, body: gzipSync(lsRefs) });
    expect(zipped.status).toBe(200);
    expect(await zipped.text()).toBe(plainText);

    // v0 fetch of one commit, gzipped
    const want = Buffer.concat([pktLine(`want ${mainSha} ofs-delta\n`), Buffer.from("0000"), pktLine("done\n")]);
    const v0 = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/x-git-upload-pack-request", "content-encoding": "gzip" },
      body: gzipSync(want),
    });
    expect(v0.status).toBe(200);
    const pack = Buffer.from(await v0.arrayBuffer());
    expect(pack.subarray(0, 8).toString()).toBe("0008NAK\n");
    expect(pack.indexOf("PACK")).toBe(8);

    // the v2 advertisement has no "# service" header; v0 has it
    const adv2 = await fetch(`${server.url}/${owner.username}/zipped.git/info/refs?service=git-upload-pack`, {
      headers: { "git-protocol": "version=2" },
    });
    expect(adv2.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(adv2.headers.get("cache-control")).toMatch(/no-cache/);
    expect(await adv2.text()).toMatch(/^000eversion 2\n/);
    const adv0 = await fetch(`${server.url}/${owner.username}/zipped.git/info/refs?service=git-upload-pack`);
    expect(await adv0.text()).toMatch(new RegExp(`^001e# service=git-upload-pack\\n0000[0-9a-f]{4}${mainSha} HEAD\\0`));
  });

  it("streams a 128 MiB push: the server's memory does not grow with the request body", async () => {
    await newRepo(owner, "large");
    const dir = tmpDir("large");
    await gitOk(["init", "--quiet", "--initial-branch=main", dir]);
    for (let i = 0; i < 4; i++) writeFileSync(path.join(dir, `blob${i}.bin`), randomBytes(32 * 1024 * 1024));
    // Keep git's own work small on busy machines: no zlib, no delta search for big files.
    const fast = ["-c", "core.compression=0", "-c", "pack.compression=0", "-c", "core.bigFileThreshold=1m"];
    await gitOk([...fast, "add", "."], { cwd: dir });
    await gitOk(["commit", "--quiet", "-m", "large"], { cwd: dir });
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    try {
      // the pack on the wire is as big as the files (random data does not compress anyway)
      await gitOk([...fast, "push", "--quiet", url(owner.username, "large", ownerToken), "main"], { cwd: dir });
    } finally {
      clearInterval(sampler);
    }
    const growth = (peak - base) / 1024 / 1024;
    expect(growth, `RSS grew by ${growth.toFixed(1)} MiB`).toBeLessThan(64);
    const caller = await callerFor(actorOf(owner));
    const repo = await caller.repos.get({ owner: owner.username, name: "large" });
    const bin = await caller.repos.blob({ repoId: repo.id, path: "blob3.bin" });
    expect(bin.size).toBe(32 * 1024 * 1024);
  }, 180_000);

  it("the first push of another branch than the default one becomes the default branch", async () => {
    const created = await newRepo(owner, "mastered");
    expect(created.defaultBranch).toBe("main");
    const dir = tmpDir("mastered");
    await gitOk(["init", "--quiet", "--initial-branch=master", dir]);
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "first"], { cwd: dir });
    await gitOk(["push", "--quiet", url(owner.username, "mastered", ownerToken), "master"], { cwd: dir });
    const caller = await callerFor(actorOf(owner));
    const repo = await caller.repos.get({ owner: owner.username, name: "mastered" });
    expect(repo.defaultBranch).toBe("master");
    const back = tmpDir("mastered-clone");
    await gitOk(["clone", "--quiet", url(owner.username, "mastered", ownerToken), back]);
    expect((await gitOk(["symbolic-ref", "--short", "HEAD"], { cwd: back })).trim()).toBe("master");
    // a later push of main does not move it again
    await gitOk(["push", "--quiet", url(owner.username, "mastered", ownerToken), "master:main"], { cwd: dir });
    expect((await caller.repos.get({ owner: owner.username, name: "mastered" })).defaultBranch).toBe("master");
  });

  it("answers malformed requests with 4xx and a message, never 500", async () => {
    await newRepo(owner, "strict");
    const base = `${server.url}/${owner.username}/strict.git`;
    const auth = { authorization: `Basic ${Buffer.from(`x:${ownerToken}`).toString("base64")}` };
    const check = async (res: Response, status: number, message: RegExp) => {
      expect(res.status).toBe(status);
      expect(await res.text()).toMatch(message);
    };
    await check(await fetch(`${base}/info/refs`), 403, /smart HTTP/);
    await check(await fetch(`${base}/info/refs?service=git-upload-archive`), 403, /unsupported service/);
    await check(await fetch(`${base}/info/refs?service=--upload-pack=touch`), 403, /unsupported service/);
    await check(await fetch(`${base}/HEAD`), 404, /not found/);
    await check(await fetch(`${base}/objects/info/packs`), 404, /not found/);
    await check(await fetch(`${base}/git-upload-pack`), 405, /POST/);
    await check(await fetch(`${base}/info/refs?service=git-upload-pack`, { method: "POST", body: "x" }), 405, /GET/);
    const post = (body: BodyInit, headers: Record<string, string> = {}) =>
      fetch(`${base}/git-upload-pack`, {
        method: "POST",
        headers: { "content-type": "application/x-git-upload-pack-request", ...headers },
        body,
      });
    await check(await post("0000", { "content-type": "text/plain" }), 415, /application\/x-git-upload-pack-request/);
    await check(await post("0000", { "content-encoding": "br" }), 415, /content encoding/);
    await check(await post("this is not gzip", { "content-encoding": "gzip" }), 400, /gzip/);
    await check(
      await post(gzipSync(Buffer.from("0032want 0000000000000000000000000000000000000000\n")).subarray(0, 20), {
        "content-encoding": "gzip",
      }),
      400,
      /gzip/,
    );
    await check(await post("zzzz garbage"), 400, /refused the request|protocol/);
    // a well-formed request git refuses: git answers in-protocol with an ERR packet (as git-http-backend does)
    await check(
      await post(`${pktLine("want 1234567890123456789012345678901234567890\n").toString()}00000009done\n`),
      200,
      /ERR upload-pack: not our ref/,
    );
    // an unsafe Git-Protocol header is ignored, not passed to git
    const odd = await fetch(`${base}/info/refs?service=git-upload-pack`, {
      headers: { "git-protocol": "version=2\u00a0$(touch x)" },
    }).catch(() => null);
    if (odd) expect(odd.status).toBe(200);
    const weird = await fetch(`${base}/info/refs?service=git-upload-pack`, { headers: { "git-protocol": "version=2 ; rm" } });
    expect(weird.status).toBe(200);
    expect(await weird.text()).toMatch(/^001e# service=git-upload-pack/); // treated as v0
    // empty push request (nothing to do) is fine
    const empty = await fetch(`${base}/git-receive-pack`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/x-git-receive-pack-request" },
      body: "0000",
    });
    expect(empty.status).toBe(200);
    // invalid owner / repository names are simply unknown
    await check(await fetch(`${server.url}/-bad/x.git/info/refs?service=git-upload-pack`, { headers: auth }), 404, /not found/);
    await check(
      await fetch(`${server.url}/${owner.username}/..%2f..%2fetc.git/info/refs?service=git-upload-pack`, { headers: auth }),
      404,
      /not found/,
    );
  });
});
