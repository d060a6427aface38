/**
 * repos.transfer and redirects from the former path (docs/orgs.md "Transferring a repository"):
 * who may transfer where, CONFLICT and BAD_REQUEST, the bare repository moved on disk (forks
 * re-pointed), team grants dropped and collaborators kept, git clone/fetch of the old URL with the
 * real git binary over HTTP (301 followed by git), the REST API's 301, no redirect for a caller
 * who cannot read the repository, the redirect gone once a new repository takes the path, and a
 * failure after the rename undone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getDb } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { alternatesFile } from "@/server/git/forks";
import { handleGitHttp } from "@/server/http/git/smart-http";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { gitClient, type GitRun } from "../fixtures/clients";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-transfer-git-"));
const home = path.join(tmpRoot, "home");
let dirs = 0;
const tmpDir = (name: string) => path.join(tmpRoot, `${name}-${++dirs}`);
const git = (args: string[], cwd = tmpRoot): Promise<GitRun> => gitClient(["-c", "credential.helper=", ...args], { cwd, home });
async function gitOk(args: string[], cwd = tmpRoot): Promise<string> {
  const r = await git(args, cwd);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}
const suffix = () => Math.random().toString(36).slice(2, 8);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: { code?: string }) => e.code,
  );

let server: Awaited<ReturnType<typeof startServer>>;
let alice: Profile; // owns the repositories, owner of org
let bob: Profile; // member of org (members may create), collaborator
let carol: Profile; // outsider
let org: string;

beforeAll(async () => {
  server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
  alice = await makeUser("talice");
  bob = await makeUser("tbob");
  carol = await makeUser("tcarol");
  org = `torg${suffix()}`;
  const a = await callerFor(actorOf(alice));
  await a.orgs.create({ name: org });
  await a.orgs.update({ name: org, basePermission: "none" });
  await a.orgs.addMember({ name: org, username: bob.username });
});

afterAll(async () => {
  await server.close();
  rmSync(tmpRoot, { recursive: true, force: true });
});

/** Pushes one commit to `owner/name` with `token`; returns its sha. */
async function pushCommit(owner: string, name: string, token: string): Promise<string> {
  const work = tmpDir("work");
  await gitOk(["init", "--quiet", "--initial-branch=main", work]);
  writeFileSync(path.join(work, "a.txt"), `hello ${suffix()}\n`);
  await gitOk(["add", "a.txt"], work);
  await gitOk(["commit", "--quiet", "-m", "first"], work);
  await gitOk(["push", "--quiet", gitUrl(owner, name, token), "HEAD:main"], work);
  return (await gitOk(["rev-parse", "HEAD"], work)).trim();
}
const gitUrl = (owner: string, name: string, token?: string) =>
  `http://${token ? `git:${token}@` : ""}127.0.0.1:${new URL(server.url).port}/${owner}/${name}.git`;

describe("repos.transfer: who, where, errors", () => {
  it("needs admin of the repository and the right to create in the target", async () => {
    const a = await callerFor(actorOf(alice));
    const repo = await a.repos.create({ name: `perm${suffix()}` });
    await a.repos.addCollaborator({ repoId: repo.id, username: bob.username, role: "write" });
    const b = await callerFor(actorOf(bob));
    expect(await codeOf(b.repos.transfer({ repoId: repo.id, newOwner: org }))).toBe("FORBIDDEN"); // write, not admin
    const c = await callerFor(actorOf(carol));
    expect(await codeOf(c.repos.transfer({ repoId: repo.id, newOwner: org }))).toBe("FORBIDDEN"); // reads the public repository, not admin
    const hidden = await a.repos.create({ name: `hid${suffix()}`, isPrivate: true });
    expect(await codeOf(c.repos.transfer({ repoId: hidden.id, newOwner: carol.username }))).toBe("NOT_FOUND");
    expect(await codeOf(a.repos.transfer({ repoId: repo.id, newOwner: alice.username }))).toBe("BAD_REQUEST");
    expect(await codeOf(a.repos.transfer({ repoId: repo.id, newOwner: carol.username }))).toBe("NOT_FOUND"); // a person, not the caller
    expect(await codeOf(a.repos.transfer({ repoId: repo.id, newOwner: "nosuchowner" }))).toBe("NOT_FOUND");
    // a member may transfer into the organization only while members may create repositories
    const mine = await b.repos.create({ name: `bobs${suffix()}` });
    await a.orgs.update({ name: org, membersCanCreateRepos: false });
    expect(await codeOf(b.repos.transfer({ repoId: mine.id, newOwner: org }))).toBe("FORBIDDEN");
    await a.orgs.update({ name: org, membersCanCreateRepos: true });
    const moved = await b.repos.transfer({ repoId: mine.id, newOwner: org });
    expect(moved).toEqual({ id: mine.id, owner: org, name: mine.name });
  });

  it("CONFLICT when the target has a repository of that name", async () => {
    const a = await callerFor(actorOf(alice));
    const name = `dup${suffix()}`;
    const repo = await a.repos.create({ name });
    await a.repos.create({ owner: org, name: name.toUpperCase() });
    expect(await codeOf(a.repos.transfer({ repoId: repo.id, newOwner: org }))).toBe("CONFLICT");
    expect(existsSync(repoGitDir(alice.username, name))).toBe(true);
    expect((await a.repos.get({ owner: alice.username, name })).id).toBe(repo.id);
  });
});

describe("repos.transfer: disk, grants, redirects", () => {
  it("moves the bare repository, re-points forks, drops team grants, keeps collaborators; old URLs redirect", async () => {
    const a = await callerFor(actorOf(alice));
    const name = `move${suffix()}`;
    const repo = await a.repos.create({ owner: org, name, isPrivate: true });
    await a.repos.addCollaborator({ repoId: repo.id, username: carol.username, role: "read" });
    const db = await getDb();
    const orgRow = await db.user.findUniqueOrThrow({ where: { usernameLower: org } });
    const team = await db.team.create({ data: { orgId: orgRow.id, name: "devs", slug: "devs" } });
    await db.teamRepo.create({ data: { teamId: team.id, repoId: repo.id, permission: "write" } });
    const aliceToken = await makeToken(alice, ["repo:read", "repo:write"]);
    const head = await pushCommit(org, name, aliceToken);
    // a fork borrowing the repository's objects
    const fork = await (await callerFor(actorOf(carol))).repos.fork({ repoId: repo.id });
    const oldDir = repoGitDir(org, name);

    const moved = await a.repos.transfer({ repoId: repo.id, newOwner: alice.username });
    expect(moved.owner).toBe(alice.username);
    expect(existsSync(oldDir)).toBe(false);
    expect(existsSync(repoGitDir(alice.username, name))).toBe(true);
    const forkDir = repoGitDir(carol.username, fork.name);
    expect(path.resolve(path.join(forkDir, "objects"), readFileSync(alternatesFile(forkDir), "utf8").trim())).toBe(
      path.join(repoGitDir(alice.username, name), "objects"),
    );
    // the fork still reads the objects it borrows
    const forkBranches = await (await callerFor(actorOf(carol))).repos.branches({ repoId: fork.id });
    expect(forkBranches.find((b) => b.name === "main")?.sha).toBe(head);
    expect(await db.teamRepo.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await db.collaborator.count({ where: { repoId: repo.id, userId: carol.id } })).toBe(1);
    const branches = await a.repos.branches({ repoId: repo.id });
    expect(branches.find((b) => b.name === "main")?.sha).toBe(head);

    // tRPC by the old path: NOT_FOUND; repos.redirect tells the new one (to readers only)
    expect(await codeOf(a.repos.get({ owner: org, name }))).toBe("NOT_FOUND");
    expect(await a.repos.redirect({ owner: org, name })).toEqual({ owner: alice.username, name });
    expect(await (await callerFor(null)).repos.redirect({ owner: org, name })).toBeNull();
    expect(await (await callerFor(actorOf(bob))).repos.redirect({ owner: org, name })).toBeNull();

    // git clone and fetch of the old URL follow the 301
    const clone = tmpDir("clone");
    await gitOk(["clone", "--quiet", gitUrl(org, name, aliceToken), clone]);
    expect((await gitOk(["rev-parse", "HEAD"], clone)).trim()).toBe(head);
    // a new commit pushed to the old URL (the push follows the redirect too), fetched through it
    const other = tmpDir("other");
    await gitOk(["clone", "--quiet", gitUrl(alice.username, name, aliceToken), other]);
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "second"], other);
    await gitOk(["push", "--quiet", gitUrl(org, name, aliceToken), "HEAD:main"], other);
    const next = (await gitOk(["rev-parse", "HEAD"], other)).trim();
    await gitOk(["fetch", "--quiet", "origin"], clone); // origin is the old URL
    expect((await gitOk(["rev-parse", "origin/main"], clone)).trim()).toBe(next);
    expect((await a.repos.branches({ repoId: repo.id })).find((b) => b.name === "main")?.sha).toBe(next);

    // the redirect itself: 301 with Location at the new path
    const basic = (t: string) => ({ authorization: `Basic ${Buffer.from(`x:${t}`).toString("base64")}` });
    const res = await fetch(`${server.url}/${org}/${name}.git/info/refs?service=git-upload-pack`, {
      headers: basic(aliceToken),
      redirect: "manual",
    });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe(`/${alice.username}/${name}.git/info/refs?service=git-upload-pack`);
    // not to a caller who cannot read it: an outsider's token gets 404, anonymous the challenge
    const bobToken = await makeToken(bob, ["repo:read"]);
    const hidden = await fetch(`${server.url}/${org}/${name}.git/info/refs?service=git-upload-pack`, {
      headers: basic(bobToken),
      redirect: "manual",
    });
    expect(hidden.status).toBe(404);
    const anon = await fetch(`${server.url}/${org}/${name}.git/info/refs?service=git-upload-pack`, { redirect: "manual" });
    expect(anon.status).toBe(401);

    // REST: GitHub's 301 for a moved repository, 404 to others
    const rest = await fetch(`${server.url}/api/v3/repos/${org}/${name}/commits/main/status`, {
      headers: { authorization: `token ${aliceToken}` },
      redirect: "manual",
    });
    expect(rest.status).toBe(301);
    const body = (await rest.json()) as { message: string; url: string };
    expect(body.message).toBe("Moved Permanently");
    expect(rest.headers.get("location")).toBe(`${server.url}/api/v3/repos/${alice.username}/${name}/commits/main/status`);
    const followed = await fetch(`${server.url}/api/v3/repos/${org}/${name}/commits/main/status`, {
      headers: { authorization: `token ${aliceToken}` },
    });
    expect(followed.status).toBe(200);
    const restHidden = await fetch(`${server.url}/api/v3/repos/${org}/${name}/commits/main/status`, {
      headers: { authorization: `token ${bobToken}` },
      redirect: "manual",
    });
    expect(restHidden.status).toBe(404);

    // a new repository at the old path takes it: the redirect is gone
    const again = await a.repos.create({ owner: org, name });
    expect(await a.repos.redirect({ owner: org, name })).toBeNull();
    expect((await a.repos.get({ owner: org, name })).id).toBe(again.id);
    expect(await db.repoRedirect.count({ where: { repoId: repo.id } })).toBe(0);
  });

  it("a redirect the repository shadows on its way back is deleted; a chain keeps resolving", async () => {
    const a = await callerFor(actorOf(alice));
    const name = `back${suffix()}`;
    const repo = await a.repos.create({ name });
    await a.repos.transfer({ repoId: repo.id, newOwner: org });
    expect(await a.repos.redirect({ owner: alice.username, name })).toEqual({ owner: org, name });
    await a.repos.transfer({ repoId: repo.id, newOwner: alice.username });
    const db = await getDb();
    const rows = await db.repoRedirect.findMany({ where: { repoId: repo.id } });
    expect(rows.map((r) => r.ownerId)).toEqual([(await db.user.findUniqueOrThrow({ where: { usernameLower: org } })).id]);
    expect(await a.repos.redirect({ owner: org, name })).toEqual({ owner: alice.username, name });
    expect((await a.repos.get({ owner: alice.username, name })).id).toBe(repo.id);
  });

  it("a failure after the folder moved puts everything back (no partial state)", async () => {
    const a = await callerFor(actorOf(alice));
    const name = `undo${suffix()}`;
    const repo = await a.repos.create({ owner: org, name });
    await pushCommit(org, name, await makeToken(alice, ["repo:read", "repo:write"]));
    const db = await getDb();
    const orgRow = await db.user.findUniqueOrThrow({ where: { usernameLower: org } });
    const team = await db.team.create({ data: { orgId: orgRow.id, name: `t${suffix()}`, slug: `t${suffix()}` } });
    await db.teamRepo.create({ data: { teamId: team.id, repoId: repo.id, permission: "read" } });
    const fork = await (await callerFor(actorOf(carol))).repos.fork({ repoId: repo.id });
    // the fork's alternates file replaced by a folder: re-pointing it (after the rename) fails
    const forkAlternates = alternatesFile(repoGitDir(carol.username, fork.name));
    const saved = readFileSync(forkAlternates, "utf8");
    rmSync(forkAlternates);
    mkdirSync(forkAlternates);
    try {
      await expect(a.repos.transfer({ repoId: repo.id, newOwner: alice.username })).rejects.toMatchObject({
        code: "INTERNAL_SERVER_ERROR",
      });
    } finally {
      rmSync(forkAlternates, { recursive: true });
      writeFileSync(forkAlternates, saved);
    }
    expect(existsSync(repoGitDir(org, name))).toBe(true);
    expect(existsSync(repoGitDir(alice.username, name))).toBe(false);
    expect((await a.repos.get({ owner: org, name })).id).toBe(repo.id);
    expect(await db.repoRedirect.count({ where: { repoId: repo.id } })).toBe(0);
    expect(await db.teamRepo.count({ where: { repoId: repo.id } })).toBe(1);
    expect((await a.repos.branches({ repoId: repo.id })).map((b) => b.name)).toEqual(["main"]);
  });

  it("a fork at a redirected path deletes the redirect", async () => {
    const a = await callerFor(actorOf(alice));
    const name = `forked${suffix()}`;
    const repo = await a.repos.create({ name });
    await a.repos.transfer({ repoId: repo.id, newOwner: org });
    await a.repos.fork({ repoId: repo.id });
    expect(await a.repos.redirect({ owner: alice.username, name })).toBeNull();
  });
});
