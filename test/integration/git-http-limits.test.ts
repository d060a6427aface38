/**
 * Git smart HTTP limits and options (docs/git-http.md "Limits"), end to end with the real git
 * CLI and raw HTTP against handleGitHttp on startServer: the 32 MiB cap on decompressed
 * upload-pack bodies (413), git stopped when the client leaves (upload and response phases),
 * lazy start and the upload idle timeout (408), the global and per-client process caps (FIFO
 * queue, 503 + Retry-After), partial clone with lazy fetches (v2 and v0), and refs/pull/*
 * hidden from the push advertisement. Never asserts timings: conditions are polled.
 */
import { describe, expect, it, beforeAll, afterAll, afterEach } from "vitest";
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { getConfig } from "@/server/config";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { pktLine } from "@/server/git/pkt-line";
import { gitHttpStats } from "@/server/http/git/process-gate";
import { DEFAULT_GIT_HTTP_LIMITS, resetGitHttpLimits, setGitHttpLimits } from "@/server/http/git/http-limits";
import type { Profile } from "@/server/services/users/profile";
import { gitClient } from "../fixtures/clients";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-git-limits-"));
const home = path.join(tmpRoot, "home");
let dirCounter = 0;
const tmpDir = (name: string) => path.join(tmpRoot, `${name}-${++dirCounter}`);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the git CLI asynchronously with an isolated configuration (as git-http.test.ts does). */
function git(args: string[], opts: { cwd?: string; input?: Buffer | string } = {}): Promise<Run> {
  return gitClient(["-c", "credential.helper=", ...args], { cwd: opts.cwd ?? tmpRoot, home, input: opts.input ?? "" });
}

async function gitOk(args: string[], opts: Parameters<typeof git>[1] = {}): Promise<string> {
  const r = await git(args, opts);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

/** Polls `cond` every 50 ms until true; fails with `what` after `ms`. */
async function until(cond: () => boolean, what: string, ms = 45_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Raw {
  req: http.ClientRequest;
  /** The response (status, headers, body text) once the server answered and ended it. */
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
  /** Resolves with the response object as soon as headers arrive (the body is not read). */
  head: Promise<http.IncomingMessage>;
}

/** A POST whose body the test writes by hand (chunked), for stalls and disconnects. */
function rawPost(base: string, pathname: string, headers: Record<string, string>, readBody = true): Raw {
  const req = http.request(`${base}${pathname}`, { method: "POST", headers });
  req.on("error", () => {}); // the test destroys some of these on purpose
  let resolveHead!: (r: http.IncomingMessage) => void;
  const head = new Promise<http.IncomingMessage>((r) => (resolveHead = r));
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on("response", (res) => {
      resolveHead(res);
      if (!readBody) return;
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString("utf8") }));
      res.on("error", reject);
    });
  });
  response.catch(() => {});
  req.flushHeaders();
  return { req, response, head };
}

describe("git smart HTTP limits", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  let owner: Profile;
  let token: string;
  let mainSha: string;
  const repoName = "limits";
  const auth = (t: string) => ({ authorization: `Basic ${Buffer.from(`git:${t}`).toString("base64")}` });
  const cloneUrl = (t = token) => `http://git:${t}@${new URL(base).host}/${owner.username}/${repoName}.git`;
  const serverDir = () => path.join(getConfig().dataDir, "repos", owner.username.toLowerCase(), `${repoName}.git`);
  const uploadHeaders = (t = token, extra: Record<string, string> = {}) => ({
    ...auth(t),
    "content-type": "application/x-git-upload-pack-request",
    ...extra,
  });

  beforeAll(async () => {
    server = await startServer({ git: handleGitHttp });
    base = server.url;
    owner = await makeUser("limits");
    token = await makeToken(owner);
    await (await callerFor(actorOf(owner))).repos.create({ name: repoName, isPrivate: true });
    // Three commits that each rewrite two text files, plus a 24 MiB incompressible blob, so a
    // clone's response is larger than every socket and pipe buffer between git and the client.
    const work = tmpDir("work");
    await gitOk(["init", "--quiet", "--initial-branch=main", work]);
    for (let i = 1; i <= 3; i++) {
      writeFileSync(path.join(work, "a.txt"), `a version ${i}\n`.repeat(50));
      writeFileSync(path.join(work, "b.txt"), `b version ${i}\n`.repeat(50));
      if (i === 3) writeFileSync(path.join(work, "big.bin"), randomBytes(24 * 1024 * 1024));
      await gitOk(["add", "."], { cwd: work });
      await gitOk(["commit", "--quiet", "-m", `v${i}`], { cwd: work });
    }
    await gitOk(["-c", "core.compression=0", "-c", "pack.compression=0", "push", "--quiet", cloneUrl(), "main"], { cwd: work });
    mainSha = (await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim();
  }, 180_000);

  afterEach(() => resetGitHttpLimits());

  afterAll(async () => {
    await server.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  /** A v2 `fetch` request body wanting main with `haves` have-lines of `have` (default: main itself). */
  function fetchRequest(haves: number, have = mainSha): Buffer {
    const line = pktLine(`have ${have}\n`);
    return Buffer.concat([
      pktLine("command=fetch\n"),
      Buffer.from("0001"),
      pktLine(`want ${mainSha}\n`),
      Buffer.alloc(line.length * haves).fill(line),
      pktLine("done\n"),
      Buffer.from("0000"),
    ]);
  }

  it("answers 413 to an upload-pack request over 32 MiB after gunzip, and stops git", async () => {
    expect(DEFAULT_GIT_HTTP_LIMITS.maxUploadPackBytes).toBe(32 * 1024 * 1024);
    const before = gitHttpStats();
    // 36 MiB of have lines: ~100 KiB gzipped (the issue's bomb: 780 KB of gzip, 256 MB of lines)
    const bomb = gzipSync(fetchRequest(Math.ceil((36 * 1024 * 1024) / 50)));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await fetch(`${base}/${owner.username}/${repoName}.git/git-upload-pack`, {
      method: "POST",
      headers: uploadHeaders(token, { "git-protocol": "version=2", "content-encoding": "gzip" }),
      body: bomb,
    });
    expect(res.status).toBe(413);
    expect(await res.text()).toMatch(/at most 32 MiB/);
    await until(() => gitHttpStats().processes === before.processes, "git to exit");
    expect(gitHttpStats().stopped).toBeGreaterThan(before.stopped);

    // identity bodies count too (a small cap keeps the test cheap); a normal request passes it
    setGitHttpLimits({ maxUploadPackBytes: 64 * 1024 });
    const plain = await fetch(`${base}/${owner.username}/${repoName}.git/git-upload-pack`, {
      method: "POST",
      headers: uploadHeaders(token, { "git-protocol": "version=2" }),
      body: new Uint8Array(fetchRequest(2000)),
    });
    expect(plain.status).toBe(413);
    await plain.text();
    const small = await fetch(`${base}/${owner.username}/${repoName}.git/git-upload-pack`, {
      method: "POST",
      headers: uploadHeaders(token, { "git-protocol": "version=2" }),
      body: Buffer.concat([pktLine("command=ls-refs\n"), Buffer.from("0001"), Buffer.from("0000")]),
    });
    expect(small.status).toBe(200);
    expect(await small.text()).toContain(`${mainSha} refs/heads/main`);
  });

  it("a push (receive-pack) is not capped: a 1 MiB push passes a 64 KiB upload-pack cap", async () => {
    setGitHttpLimits({ maxUploadPackBytes: 64 * 1024 });
    const work = tmpDir("push");
    await gitOk(["clone", "--quiet", "--no-checkout", "--filter=blob:none", cloneUrl(), work]);
    await gitOk(["checkout", "--quiet", "-b", "topic", "HEAD~2"], { cwd: work }); // skips big.bin
    writeFileSync(path.join(work, "r.bin"), randomBytes(1024 * 1024));
    await gitOk(["add", "r.bin"], { cwd: work });
    await gitOk(["commit", "--quiet", "-m", "random"], { cwd: work });
    await gitOk(["push", "--quiet", "origin", "topic"], { cwd: work });
    expect((await gitOk(["--git-dir", serverDir(), "rev-parse", "topic"])).trim()).toBe(
      (await gitOk(["rev-parse", "HEAD"], { cwd: work })).trim(),
    );
  });

  it("stops git when the client disconnects while uploading", async () => {
    const before = gitHttpStats();
    const raw = rawPost(base, `/${owner.username}/${repoName}.git/git-upload-pack`, uploadHeaders(token, { "git-protocol": "version=2" }));
    raw.req.write(Buffer.concat([pktLine("command=fetch\n"), Buffer.from("0001"), pktLine(`want ${mainSha}\n`)])); // no "done", no flush: git waits for more
    await until(() => gitHttpStats().processes === before.processes + 1, "git to start on the first body bytes");
    raw.req.destroy();
    await until(() => gitHttpStats().processes === before.processes, "git to be stopped");
    expect(gitHttpStats().stopped).toBe(before.stopped + 1);
    expect(gitHttpStats().slots).toBe(before.slots);
  });

  it("stops git when the client disconnects while the response streams", async () => {
    const before = gitHttpStats();
    const raw = rawPost(
      base,
      `/${owner.username}/${repoName}.git/git-upload-pack`,
      uploadHeaders(token, { "git-protocol": "version=2" }),
      false,
    );
    raw.req.end(fetchRequest(0));
    const res = await raw.head; // git has answered; the body (24 MiB+) is left unread: git blocks on its pipe
    expect(res.statusCode).toBe(200);
    expect(gitHttpStats().processes).toBe(before.processes + 1);
    res.destroy();
    raw.req.destroy();
    await until(() => gitHttpStats().processes === before.processes, "git to be stopped");
    expect(gitHttpStats().stopped).toBe(before.stopped + 1);
  });

  it("starts git only on the first body byte, and answers 408 to a stalled upload", async () => {
    setGitHttpLimits({ uploadIdleMs: 1500 });
    const before = gitHttpStats();
    let peak = before.processes;
    const sampler = setInterval(() => {
      peak = Math.max(peak, gitHttpStats().processes);
    }, 20);
    try {
      // headers only, then silence: no git process, then 408
      const silent = rawPost(
        base,
        `/${owner.username}/${repoName}.git/git-upload-pack`,
        uploadHeaders(token, { "git-protocol": "version=2" }),
      );
      const answer = await silent.response;
      expect(answer.status).toBe(408);
      expect(answer.body).toMatch(/stalled/);
      expect(peak).toBe(before.processes);
      silent.req.destroy();

      // a first chunk, then silence: git runs, then is stopped and the client gets 408
      const partial = rawPost(
        base,
        `/${owner.username}/${repoName}.git/git-upload-pack`,
        uploadHeaders(token, { "git-protocol": "version=2" }),
      );
      partial.req.write(Buffer.concat([pktLine("command=fetch\n"), Buffer.from("0001")]));
      const second = await partial.response;
      expect(second.status).toBe(408);
      expect(peak).toBe(before.processes + 1);
      partial.req.destroy();
      await until(() => gitHttpStats().processes === before.processes, "git to be stopped");
      expect(gitHttpStats().stopped).toBe(before.stopped + 1);
    } finally {
      clearInterval(sampler);
    }
  });

  it("caps git processes per client and globally: excess requests wait in a queue, then 503 with Retry-After", async () => {
    setGitHttpLimits({ maxProcesses: 2, maxPerClient: 1, queueWaitMs: 1000, uploadIdleMs: 120_000 });
    const other = await makeUser("other");
    const otherToken = await makeToken(other);
    await (await callerFor(actorOf(other))).repos.create({ name: "theirs" });
    const before = gitHttpStats();
    const hold = (t: string | null, o: string, name: string, extra: Record<string, string> = {}) => {
      const raw = rawPost(base, `/${o}/${name}.git/git-upload-pack`, {
        ...(t ? auth(t) : {}),
        "content-type": "application/x-git-upload-pack-request",
        "git-protocol": "version=2",
        ...extra,
      });
      raw.req.write(pktLine("command=ls-refs\n")); // git starts and waits for the rest
      return raw;
    };
    const advert = (t: string | null, o: string, name: string, extra: Record<string, string> = {}) =>
      fetch(`${base}/${o}/${name}.git/info/refs?service=git-upload-pack`, { headers: { ...(t ? auth(t) : {}), ...extra } });

    const held = hold(token, owner.username, repoName);
    let anonHeld: Raw | null = null;
    try {
      // the owner holds one process: their next request (an advertisement counts too) waits, then 503
      await until(() => gitHttpStats().slots === before.slots + 1, "the owner's git to start");
      const refused = await advert(token, owner.username, repoName);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe(String(DEFAULT_GIT_HTTP_LIMITS.retryAfterS));
      expect(await refused.text()).toMatch(/busy/);

      // another user is another client: served
      const theirs = await advert(otherToken, other.username, "theirs");
      expect(theirs.status).toBe(200);
      await theirs.text();
      await until(() => gitHttpStats().slots === before.slots + 1, "the other user's git to exit");

      // anonymous clients are told apart by address
      anonHeld = hold(null, other.username, "theirs", { "x-forwarded-for": "192.0.2.1" });
      await until(() => gitHttpStats().slots === before.slots + 2, "the anonymous client's git to start");

      // both global slots taken: a third client waits; when a slot frees within the wait, it is served
      setGitHttpLimits({ queueWaitMs: 60_000 });
      const waiting = advert(null, other.username, "theirs", { "x-forwarded-for": "192.0.2.2" });
      await until(() => gitHttpStats().queued === before.queued + 1, "the request to be queued");
      held.req.destroy();
      const served = await waiting;
      expect(served.status).toBe(200);
      await served.text();
    } finally {
      held.req.destroy();
      anonHeld?.req.destroy();
    }
    await until(() => gitHttpStats().processes === before.processes && gitHttpStats().slots === before.slots, "every slot to be released");
  });

  it("a clone works with one process at a time", async () => {
    setGitHttpLimits({ maxProcesses: 1, maxPerClient: 1 });
    const dir = tmpDir("serial");
    await gitOk(["clone", "--quiet", "--no-checkout", cloneUrl(), dir]);
    expect((await gitOk(["rev-parse", "HEAD"], { cwd: dir })).trim()).toBe(mainSha);
  });

  for (const version of ["2", "0"]) {
    it(`partial clone (--filter=blob:none, protocol v${version}) omits blobs and fetches them on checkout`, async () => {
      const dir = tmpDir(`partial-v${version}`);
      const clone = await git(["-c", `protocol.version=${version}`, "clone", "--filter=blob:none", cloneUrl(), dir]);
      expect(clone.code, clone.stderr).toBe(0);
      expect(clone.stderr).not.toMatch(/filtering not recognized/);
      expect((await gitOk(["config", "remote.origin.promisor"], { cwd: dir })).trim()).toBe("true");
      // the blobs of older commits are missing locally; HEAD's were fetched for the checkout
      const missing = (await gitOk(["rev-list", "--objects", "--all", "--missing=print"], { cwd: dir }))
        .split("\n")
        .filter((l) => l.startsWith("?"));
      const olderBlobs = (await gitOk(["ls-tree", "-r", "--format=%(objectname)", "HEAD~2"], { cwd: dir })).split("\n").filter(Boolean);
      expect(missing.map((l) => l.slice(1)).sort()).toEqual(expect.arrayContaining(olderBlobs));
      expect(readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("a version 3\n".repeat(50));
      // checking out an older commit fetches its blobs lazily (wants of objects no ref names)
      const checkout = await git(["-c", `protocol.version=${version}`, "checkout", "--quiet", "HEAD~2"], { cwd: dir });
      expect(checkout.code, checkout.stderr).toBe(0);
      expect(readFileSync(path.join(dir, "b.txt"), "utf8")).toBe("b version 1\n".repeat(50));
      const after = (await gitOk(["rev-list", "--objects", "--all", "--missing=print"], { cwd: dir }))
        .split("\n")
        .filter((l) => l.startsWith("?"));
      expect(after.length).toBe(missing.length - olderBlobs.length);
    });
  }

  it("protocol v0 still refuses wants of unreachable commits (allowReachableSHA1InWant, not AnySHA1)", async () => {
    const dangling = (await gitOk(["--git-dir", serverDir(), "commit-tree", "-m", "dangling", `${mainSha}^{tree}`])).trim();
    const body = Buffer.concat([pktLine(`want ${dangling}\n`), Buffer.from("0000"), pktLine("done\n")]);
    const res = await fetch(`${base}/${owner.username}/${repoName}.git/git-upload-pack`, {
      method: "POST",
      headers: uploadHeaders(),
      body,
    });
    expect(await res.text()).toMatch(/not our ref/);
    const adv = await (
      await fetch(`${base}/${owner.username}/${repoName}.git/info/refs?service=git-upload-pack`, { headers: auth(token) })
    ).text();
    expect(adv).toMatch(/allow-reachable-sha1-in-want/);
    expect(adv).toMatch(/ filter/);
  });

  it("hides refs/pull/* from the push advertisement, keeps them fetchable, refuses pushes to them", async () => {
    const lines = Array.from({ length: 500 }, (_, i) => `create refs/pull/${i + 1}/head ${mainSha}\n`).join("");
    await gitOk(["--git-dir", serverDir(), "update-ref", "--stdin"], { input: lines });
    const receive = await (
      await fetch(`${base}/${owner.username}/${repoName}.git/info/refs?service=git-receive-pack`, { headers: auth(token) })
    ).text();
    expect(receive).toContain("refs/heads/main");
    expect(receive).not.toContain("refs/pull/");
    const upload = await (
      await fetch(`${base}/${owner.username}/${repoName}.git/info/refs?service=git-upload-pack`, { headers: auth(token) })
    ).text();
    expect(upload).toContain("refs/pull/500/head");

    const dir = tmpDir("pulls");
    await gitOk(["clone", "--quiet", "--no-checkout", "--filter=blob:none", cloneUrl(), dir]);
    await gitOk(["fetch", "--quiet", "origin", "refs/pull/7/head:refs/remotes/origin/pr-7"], { cwd: dir });
    expect((await gitOk(["rev-parse", "origin/pr-7"], { cwd: dir })).trim()).toBe(mainSha);
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "pr"], { cwd: dir });
    const push = await git(["push", "--porcelain", "origin", "HEAD:refs/pull/7/head"], { cwd: dir });
    expect(push.code).not.toBe(0);
    expect(push.stdout + push.stderr).toMatch(/hidden|deny|rejected/);
    expect((await gitOk(["--git-dir", serverDir(), "rev-parse", "refs/pull/7/head"])).trim()).toBe(mainSha);
  });
});
