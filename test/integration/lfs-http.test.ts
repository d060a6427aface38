/**
 * Git LFS over HTTP end to end (docs/lfs.md): the real `git` + `git lfs` client against
 * handleGitHttp served by startServer, real database and storage. Push and clone (smudged) with a
 * PAT; private repository → 404 for a stranger; a repo:read token cannot upload; an oid/size
 * mismatch is refused with nothing stored; the quota; locks; forks share objects; lfs.gc; a
 * transferred repository's former URL (git-lfs follows the redirect).
 * Isolated: it sets NEXTAUTH_URL (the batch answer's hrefs use the public URL).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getDb } from "@/server/db";
import { resetConfig } from "@/server/config";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { lfsObjectPath, lfsTempDir } from "@/server/services/lfs/object-path";
import { collectLfsGarbage } from "@/server/services/lfs/gc-objects";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { gitClient } from "../fixtures/clients";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-lfs-http-"));
const home = path.join(tmpRoot, "home");
const LFS = "application/vnd.git-lfs+json";

async function gitOk(args: string[], cwd = tmpRoot): Promise<string> {
  const r = await gitClient(["-c", "credential.helper=", ...args], { cwd, home });
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** The upload leftovers (`<oid>.<random>.part`) of `oid` in DATA_DIR/lfs/tmp. */
const partsOf = (oid: string) =>
  (existsSync(lfsTempDir()) ? readdirSync(lfsTempDir()) : []).filter((n) => n.startsWith(`${oid}.`) && n.endsWith(".part"));

/**
 * A PUT of `data` whose body sends its first byte and holds the rest until `release` resolves;
 * resolves `started` once the server has passed its early quota check and opened the temporary
 * file (it does so only after the check), so the test knows the upload is in flight.
 */
function heldPut(url: string, headers: Record<string, string>, oid: string, data: Buffer, release: Promise<void>) {
  const body = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(data.subarray(0, 1)),
    pull: async (c) => {
      await release;
      c.enqueue(data.subarray(1));
      c.close();
    },
  });
  const response = fetch(url, { method: "PUT", headers, body, duplex: "half" } as RequestInit);
  const started = (async () => {
    for (let i = 0; i < 500 && partsOf(oid).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    if (partsOf(oid).length === 0) throw new Error(`the upload of ${oid} never started`);
  })();
  return { response, started };
}

describe("Git LFS over HTTP", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let owner: Profile;
  let ownerToken: string;
  const content = randomBytes(300_000);
  const oid = sha256(content);
  const previousUrl = process.env.NEXTAUTH_URL;

  const remote = (o: string, name: string, token: string) => `http://git:${token}@${new URL(server.url).host}/${o}/${name}.git`;
  const basic = (token: string) => `Basic ${Buffer.from(`git:${token}`).toString("base64")}`;
  const lfsUrl = (o: string, name: string, rest: string) => `${server.url}/${o}/${name}.git/info/lfs/${rest}`;
  async function batch(o: string, name: string, token: string | null, operation: string, objects: { oid: string; size: number }[]) {
    const res = await fetch(lfsUrl(o, name, "objects/batch"), {
      method: "POST",
      headers: { accept: LFS, "content-type": LFS, ...(token ? { authorization: basic(token) } : {}) },
      body: JSON.stringify({ operation, transfers: ["basic"], objects, hash_algo: "sha256" }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { objects?: Record<string, unknown>[] } };
  }
  async function newRepo(user: Profile, name: string, isPrivate = false) {
    return (await callerFor(actorOf(user))).repos.create({ name, isPrivate });
  }

  beforeAll(async () => {
    server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
    process.env.NEXTAUTH_URL = server.url;
    resetConfig();
    owner = await makeUser("lfsowner");
    ownerToken = await makeToken(owner);
    await gitClient(["lfs", "install", "--skip-repo"], { cwd: tmpRoot, home });
  });

  afterAll(async () => {
    await server.close();
    if (previousUrl === undefined) delete process.env.NEXTAUTH_URL;
    else process.env.NEXTAUTH_URL = previousUrl;
    resetConfig();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it("pushes an LFS file with a PAT, stores it content-addressed, and a clone smudges it back", async () => {
    const repo = await newRepo(owner, "media");
    const work = path.join(tmpRoot, "work");
    await gitOk(["init", "--quiet", "--initial-branch=main", work]);
    await gitOk(["lfs", "track", "*.bin"], work);
    writeFileSync(path.join(work, "big.bin"), content);
    writeFileSync(path.join(work, "README.md"), "hello\n");
    await gitOk(["add", "."], work);
    await gitOk(["commit", "--quiet", "-m", "lfs"], work);
    // the committed blob is a pointer
    expect(await gitOk(["show", "HEAD:big.bin"], work)).toContain(`oid sha256:${oid}`);
    await gitOk(["push", "--quiet", remote(owner.username, "media", ownerToken), "main"], work);

    const db = await getDb();
    expect(await db.lfsRepoObject.findMany({ where: { repoId: repo.id }, select: { oid: true } })).toEqual([{ oid }]);
    expect(Number((await db.lfsObject.findUniqueOrThrow({ where: { oid } })).size)).toBe(content.length);
    expect(readFileSync(lfsObjectPath(oid)).equals(content)).toBe(true);

    const clone = path.join(tmpRoot, "clone");
    await gitOk(["clone", "--quiet", remote(owner.username, "media", ownerToken), clone]);
    expect(readFileSync(path.join(clone, "big.bin")).equals(content)).toBe(true);
  });

  it("answers 404 to a stranger for a private repository and 401 to anonymous", async () => {
    await newRepo(owner, "secret", true);
    const stranger = await makeUser("lfsstranger");
    const strangerToken = await makeToken(stranger);
    const r = await batch(owner.username, "secret", strangerToken, "download", [{ oid, size: 1 }]);
    expect(r.status).toBe(404);
    expect(String(r.body.message)).toMatch(/not found/);
    expect((await batch(owner.username, "secret", null, "download", [{ oid, size: 1 }])).status).toBe(401);
  });

  it("refuses an upload with a repo:read token (403) and answers downloads with per-object 404s", async () => {
    const readToken = await makeToken(owner, ["repo:read"]);
    const up = await batch(owner.username, "media", readToken, "upload", [{ oid: "a".repeat(64), size: 3 }]);
    expect(up.status).toBe(403);
    expect(String(up.body.message)).toMatch(/repo:write/);
    const down = await batch(owner.username, "media", readToken, "download", [
      { oid, size: content.length },
      { oid: "b".repeat(64), size: 3 },
      { oid: "XYZ", size: 3 },
    ]);
    expect(down.status).toBe(200);
    expect(down.body.objects![0]!.actions).toBeDefined();
    expect(down.body.objects![1]!.error).toMatchObject({ code: 404 });
    expect(down.body.objects![2]!.error).toMatchObject({ code: 422 });
  });

  it("refuses an upload whose content does not match its oid or size, storing nothing", async () => {
    await newRepo(owner, "strict");
    const real = randomBytes(1000);
    const claimed = sha256(Buffer.from("something else"));
    const plan = await batch(owner.username, "strict", ownerToken, "upload", [{ oid: claimed, size: real.length }]);
    const upload = (plan.body.objects![0]!.actions as Record<string, { href: string; header: Record<string, string> }>).upload;
    expect(upload.href).toBe(lfsUrl(owner.username, "strict", `objects/${claimed}/${real.length}`));
    const put = await fetch(upload.href, { method: "PUT", headers: upload.header, body: real });
    expect(put.status).toBe(422);
    expect(((await put.json()) as { message: string }).message).toMatch(/SHA-256/);
    // right hash, wrong size in the URL
    const goodOid = sha256(real);
    const short = await fetch(lfsUrl(owner.username, "strict", `objects/${goodOid}/${real.length + 5}`), {
      method: "PUT",
      headers: { authorization: basic(ownerToken) },
      body: real,
    });
    expect(short.status).toBe(422);
    const db = await getDb();
    expect(await db.lfsObject.count({ where: { oid: { in: [claimed, goodOid] } } })).toBe(0);
    expect(existsSync(lfsObjectPath(claimed)) || existsSync(lfsObjectPath(goodOid))).toBe(false);
    // and the right one is accepted and verified
    const ok = await fetch(lfsUrl(owner.username, "strict", `objects/${goodOid}/${real.length}`), {
      method: "PUT",
      headers: upload.header,
      body: real,
    });
    expect(ok.status).toBe(200);
    const verify = await fetch(lfsUrl(owner.username, "strict", "verify"), {
      method: "POST",
      headers: { ...upload.header, "content-type": LFS },
      body: JSON.stringify({ oid: goodOid, size: real.length }),
    });
    expect(verify.status).toBe(200);
  });

  it("serves one byte range of a download (206, as git-lfs resumes), 416 past the end, the whole object for several ranges", async () => {
    await newRepo(owner, "ranges");
    const content = randomBytes(3000);
    const oid = sha256(content);
    const url = lfsUrl(owner.username, "ranges", `objects/${oid}`);
    const auth = { authorization: basic(ownerToken) };
    expect((await fetch(`${url}/${content.length}`, { method: "PUT", headers: auth, body: content })).status).toBe(200);
    const get = async (range?: string) => {
      const res = await fetch(url, { headers: range ? { ...auth, range } : auth });
      return { res, body: Buffer.from(await res.arrayBuffer()) };
    };
    const whole = await get();
    expect(whole.res.status).toBe(200);
    expect(whole.res.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.body.equals(content)).toBe(true);
    // resuming after 1,000 bytes: the rest
    const rest = await get("bytes=1000-");
    expect(rest.res.status).toBe(206);
    expect(rest.res.headers.get("content-range")).toBe("bytes 1000-2999/3000");
    expect(rest.res.headers.get("content-length")).toBe("2000");
    expect(rest.body.equals(content.subarray(1000))).toBe(true);
    const middle = await get("bytes=10-19");
    expect([middle.res.status, middle.res.headers.get("content-range")]).toEqual([206, "bytes 10-19/3000"]);
    expect(middle.body.equals(content.subarray(10, 20))).toBe(true);
    const suffix = await get("bytes=-5");
    expect(suffix.body.equals(content.subarray(2995))).toBe(true);
    const past = await get("bytes=5000-");
    expect([past.res.status, past.res.headers.get("content-range")]).toEqual([416, "bytes */3000"]);
    // several ranges or a malformed header: the whole object (RFC 9110 lets a server ignore Range)
    for (const range of ["bytes=0-1,5-6", "bytes=abc", "lines=1-2"]) {
      const r = await get(range);
      expect([range, r.res.status]).toEqual([range, 200]);
      expect(r.body.equals(content)).toBe(true);
    }
  });

  it("refuses objects over the repository's quota", async () => {
    const repo = await newRepo(owner, "small");
    const db = await getDb();
    await db.repository.update({ where: { id: repo.id }, data: { lfsQuotaBytes: BigInt(1500) } });
    const r = await batch(owner.username, "small", ownerToken, "upload", [
      { oid: "c".repeat(64), size: 1000 },
      { oid: "d".repeat(64), size: 1000 },
    ]);
    expect(r.status).toBe(200);
    expect(r.body.objects![0]!.actions).toBeDefined();
    expect(r.body.objects![1]!.error).toMatchObject({ code: 507 });
    expect(String((r.body.objects![1]!.error as { message: string }).message)).toMatch(/quota exceeded/);
    const put = await fetch(lfsUrl(owner.username, "small", `objects/${"e".repeat(64)}/2000`), {
      method: "PUT",
      headers: { authorization: basic(ownerToken) },
      body: Buffer.alloc(2000),
    });
    expect(put.status).toBe(507);
    const caller = await callerFor(actorOf(owner));
    expect(await caller.repos.lfsUsage({ repoId: repo.id })).toEqual({ usedBytes: 0, quotaBytes: 1500 });
    const media = await caller.repos.get({ owner: owner.username, name: "media" });
    expect(await caller.repos.lfsUsage({ repoId: media.id })).toEqual({ usedBytes: content.length, quotaBytes: 10240 * 1024 * 1024 });
  });

  it("re-checks the quota atomically as uploads complete: of two concurrent uploads past it, exactly one is kept", async () => {
    const repo = await newRepo(owner, "race");
    const db = await getDb();
    await db.repository.update({ where: { id: repo.id }, data: { lfsQuotaBytes: BigInt(1500) } });
    const auth = { authorization: basic(ownerToken) };
    const blobs = [randomBytes(1000), randomBytes(1000)];
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    const puts = blobs.map((b) =>
      heldPut(lfsUrl(owner.username, "race", `objects/${sha256(b)}/${b.length}`), auth, sha256(b), b, released),
    );
    await Promise.all(puts.map((p) => p.started)); // both passed the check before reading a byte (usage 0 then)
    release();
    const responses = await Promise.all(puts.map((p) => p.response));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 507]);
    const refused = responses.findIndex((r) => r.status === 507);
    expect(((await responses[refused]!.json()) as { message: string }).message).toMatch(/LFS quota exceeded/);
    const refusedOid = sha256(blobs[refused]!);
    expect(await db.lfsRepoObject.findMany({ where: { repoId: repo.id }, select: { oid: true } })).toEqual([
      { oid: sha256(blobs[1 - refused]!) },
    ]);
    expect(await db.lfsObject.count({ where: { oid: refusedOid } })).toBe(0);
    expect(existsSync(lfsObjectPath(refusedOid))).toBe(false);
    expect(partsOf(refusedOid)).toEqual([]);
    expect(await (await callerFor(actorOf(owner))).repos.lfsUsage({ repoId: repo.id })).toEqual({ usedBytes: 1000, quotaBytes: 1500 });
  });

  it("refuses an upload that passed the early check when another one filled the quota meanwhile, keeping a shared object", async () => {
    const donor = await newRepo(owner, "donor");
    const repo = await newRepo(owner, "race2");
    const db = await getDb();
    await db.repository.update({ where: { id: repo.id }, data: { lfsQuotaBytes: BigInt(1500) } });
    const auth = { authorization: basic(ownerToken) };
    // `shared` is already stored for another repository; uploading it here still counts here
    const shared = randomBytes(1000);
    const sharedOid = sha256(shared);
    expect(
      (await fetch(lfsUrl(owner.username, "donor", `objects/${sharedOid}/1000`), { method: "PUT", headers: auth, body: shared })).status,
    ).toBe(200);
    let release = () => {};
    const held = heldPut(
      lfsUrl(owner.username, "race2", `objects/${sharedOid}/1000`),
      auth,
      sharedOid,
      shared,
      new Promise((r) => (release = r)),
    );
    await held.started;
    const other = randomBytes(1000);
    const otherUrl = lfsUrl(owner.username, "race2", `objects/${sha256(other)}/1000`);
    expect((await fetch(otherUrl, { method: "PUT", headers: auth, body: other })).status).toBe(200);
    release();
    const res = await held.response;
    expect(res.status).toBe(507);
    expect(((await res.json()) as { message: string }).message).toMatch(
      /uses 1000 bytes of its 1.5 KiB quota and this object needs 1000 bytes/,
    );
    expect(partsOf(sharedOid)).toEqual([]);
    expect(readFileSync(lfsObjectPath(sharedOid)).equals(shared)).toBe(true); // the donor's copy stays
    expect(await db.lfsRepoObject.count({ where: { oid: sharedOid } })).toBe(1);
    const caller = await callerFor(actorOf(owner));
    expect(await caller.repos.lfsUsage({ repoId: repo.id })).toEqual({ usedBytes: 1000, quotaBytes: 1500 });
    expect((await caller.repos.lfsUsage({ repoId: donor.id })).usedBytes).toBe(1000);
    // uploading again an object the repository already references costs nothing: accepted at a full quota
    expect((await fetch(otherUrl, { method: "PUT", headers: auth, body: other })).status).toBe(200);
  });

  it("creates, lists, verifies and releases locks", async () => {
    const other = await makeUser("lfsother");
    const otherToken = await makeToken(other);
    const ownerCaller = await callerFor(actorOf(owner));
    const media = await ownerCaller.repos.get({ owner: owner.username, name: "media" });
    await ownerCaller.repos.addCollaborator({ repoId: media.id, username: other.username, role: "write" });
    const post = (token: string, rest: string, body: unknown) =>
      fetch(lfsUrl(owner.username, "media", rest), {
        method: "POST",
        headers: { authorization: basic(token), "content-type": LFS, accept: LFS },
        body: JSON.stringify(body),
      });
    const created = await post(ownerToken, "locks", { path: "big.bin", ref: { name: "refs/heads/main" } });
    expect(created.status).toBe(201);
    const lock = ((await created.json()) as { lock: { id: string; path: string; owner: { name: string } } }).lock;
    expect(lock).toMatchObject({ path: "big.bin", owner: { name: owner.username } });
    const again = await post(otherToken, "locks", { path: "big.bin" });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { lock: { id: string } }).lock.id).toBe(lock.id);

    const list = await fetch(`${lfsUrl(owner.username, "media", "locks")}?path=big.bin`, { headers: { authorization: basic(otherToken) } });
    expect(((await list.json()) as { locks: { id: string }[] }).locks.map((l) => l.id)).toEqual([lock.id]);
    const verified = (await (await post(otherToken, "locks/verify", {})).json()) as { ours: unknown[]; theirs: { id: string }[] };
    expect(verified.ours).toEqual([]);
    expect(verified.theirs.map((l) => l.id)).toEqual([lock.id]);

    expect((await post(otherToken, `locks/${lock.id}/unlock`, {})).status).toBe(403);
    expect((await post(otherToken, `locks/${lock.id}/unlock`, { force: true })).status).toBe(403); // not an admin
    const released = await post(ownerToken, `locks/${lock.id}/unlock`, {});
    expect(released.status).toBe(200);
    const empty = await fetch(lfsUrl(owner.username, "media", "locks"), { headers: { authorization: basic(ownerToken) } });
    expect(((await empty.json()) as { locks: unknown[] }).locks).toEqual([]);

    // the git lfs client's own lock commands
    const clone = path.join(tmpRoot, "clone");
    await gitOk(["lfs", "lock", "big.bin"], clone);
    expect(await gitOk(["lfs", "locks"], clone)).toContain("big.bin");
    await gitOk(["lfs", "unlock", "big.bin"], clone);
    expect(await (await getDb()).lfsLock.count({ where: { repoId: media.id } })).toBe(0);
  });

  it("shares objects with a fork (rows, not files), and lfs.gc removes them once no repository references them", async () => {
    const forker = await makeUser("lfsforker");
    const forkerToken = await makeToken(forker);
    const db = await getDb();
    const parent = await db.repository.findFirstOrThrow({ where: { ownerId: owner.id, name: "media" } });
    const fork = await (await callerFor(actorOf(forker))).repos.fork({ repoId: parent.id });
    expect(await db.lfsRepoObject.findMany({ where: { repoId: fork.id }, select: { oid: true } })).toEqual([{ oid }]);
    const clone = path.join(tmpRoot, "fork-clone");
    await gitOk(["clone", "--quiet", remote(forker.username, "media", forkerToken), clone]);
    expect(readFileSync(path.join(clone, "big.bin")).equals(content)).toBe(true);
    const file = lfsObjectPath(oid);

    // still referenced by the fork: the parent's deletion keeps the object
    await (await callerFor(actorOf(owner))).repos.delete({ repoId: parent.id });
    expect(await collectLfsGarbage(db, 0)).toMatchObject({ objects: 0 });
    expect(existsSync(file)).toBe(true);
    // within the grace period nothing is collected, after it the object goes
    await (await callerFor(actorOf(forker))).repos.delete({ repoId: fork.id });
    expect(await collectLfsGarbage(db)).toMatchObject({ objects: 0 });
    expect(await collectLfsGarbage(db, 0)).toMatchObject({ objects: 1, bytes: content.length });
    expect(existsSync(file)).toBe(false);
    expect(await db.lfsObject.count({ where: { oid } })).toBe(0);
  });
  it("after a transfer, the former URL still clones and pushes LFS content (git and git-lfs follow the redirects)", async () => {
    const repo = await newRepo(owner, "moving-media", true);
    const work = path.join(tmpRoot, "moving-work");
    const old = remote(owner.username, "moving-media", ownerToken);
    await gitOk(["init", "--quiet", "--initial-branch=main", work]);
    await gitOk(["lfs", "track", "*.bin"], work);
    writeFileSync(path.join(work, "big.bin"), content);
    await gitOk(["add", "."], work);
    await gitOk(["commit", "--quiet", "-m", "lfs"], work);
    await gitOk(["push", "--quiet", old, "main"], work);
    const me = await callerFor(actorOf(owner));
    await me.orgs.create({ name: `${owner.username}-studio` });
    await me.repos.transfer({ repoId: repo.id, newOwner: `${owner.username}-studio` });

    const clone = path.join(tmpRoot, "moving-clone");
    await gitOk(["clone", "--quiet", old, clone]);
    expect(readFileSync(path.join(clone, "big.bin")).equals(content)).toBe(true);
    const more = randomBytes(50_000);
    writeFileSync(path.join(clone, "more.bin"), more);
    await gitOk(["add", "."], clone);
    await gitOk(["commit", "--quiet", "-m", "more"], clone);
    await gitOk(["push", "--quiet", "origin", "main"], clone);
    const db = await getDb();
    const linked = await db.lfsRepoObject.findMany({ where: { repoId: repo.id }, select: { oid: true } });
    expect(linked.map((r) => r.oid).sort()).toEqual([oid, sha256(more)].sort());
  });
});
