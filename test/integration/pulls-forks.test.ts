/**
 * Forks (docs/pulls.md "Forks"): repos.fork shares objects through alternates and copies branches
 * and tags; repos.get shows parent and forkCount; a pull request from a fork (create, push update,
 * refs/pull/N/head in the target); deleting the parent leaves a working fork.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { repoGitDir } from "@/server/git/paths";
import { alternatesFile, readAlternates } from "@/server/git/forks";
import { readRef } from "@/server/git/pull-refs";
import { actorOf, callerFor } from "../helpers";
import {
  cloneOf,
  codeOf,
  git,
  member,
  messageOf,
  remoteOf,
  seededWorkTree,
  startGitServer,
  type Member,
  type Server,
  type WorkTree,
} from "./pulls-fixtures";

let server: Server;
let alice: Member, bob: Member, carol: Member;
let upstream: { id: string; name: string };
let wt: WorkTree;

beforeAll(async () => {
  server = await startGitServer();
  [alice, bob, carol] = await Promise.all([member("ali"), member("bob"), member("car")]);
  upstream = await alice.as.repos.create({ name: `up${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, alice.token, alice.user.username, upstream.name));
  await wt.run("tag", "v1");
  await wt.run("checkout", "--quiet", "-B", "dev");
  await wt.commit("dev.txt", "dev\n");
  await wt.push("dev", "v1");
  await wt.run("checkout", "--quiet", "main");
});

afterAll(async () => {
  await server.close();
});

describe("repos.fork", () => {
  it("makes the caller's repository sharing objects with the parent, with its branches and tags", async () => {
    const fork = await bob.as.repos.fork({ repoId: upstream.id });
    expect(fork).toMatchObject({ owner: bob.user.username, name: upstream.name, permission: "admin", defaultBranch: "main" });
    const gitDir = repoGitDir(bob.user.username, fork.name);
    expect(await readAlternates(gitDir)).toHaveLength(1);
    const parentDir = repoGitDir(alice.user.username, upstream.name);
    for (const ref of ["refs/heads/main", "refs/heads/dev", "refs/tags/v1"])
      expect(await readRef(gitDir, ref)).toBe(await readRef(parentDir, ref));
    const got = await bob.as.repos.get({ owner: bob.user.username, name: fork.name });
    expect(got.parent).toEqual({ id: upstream.id, owner: alice.user.username, name: upstream.name });
    expect((await alice.as.repos.get({ owner: alice.user.username, name: upstream.name })).forkCount).toBe(1);
    // the fork is a working repository: clone it over HTTP
    const clone = await cloneOf(remoteOf(server, bob.token, bob.user.username, fork.name));
    expect(await clone.sha("origin/dev")).toBe(await readRef(parentDir, "refs/heads/dev"));
    // the same name twice, a private parent the caller cannot read, and tokens without repo:write
    expect(await messageOf(bob.as.repos.fork({ repoId: upstream.id }))).toMatch(/already have a repository/);
    const secret = await alice.as.repos.create({ name: `sec${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
    expect(await codeOf(carol.as.repos.fork({ repoId: secret.id }))).toBe("NOT_FOUND");
    expect(await codeOf((await callerFor(actorOf(carol.user, ["repo:read"]))).repos.fork({ repoId: upstream.id }))).toBe("FORBIDDEN");
    expect(await codeOf((await callerFor(null)).repos.fork({ repoId: upstream.id }))).toBe("UNAUTHORIZED");
  });

  it("opens a pull request from a fork into its parent and follows pushes to the fork", async () => {
    const fork = await carol.as.repos.fork({ repoId: upstream.id, name: "carol-fork" });
    const mine = await cloneOf(remoteOf(server, carol.token, carol.user.username, fork.name));
    await mine.run("checkout", "--quiet", "-b", "fix");
    const head = await mine.commit("fix.txt", "fix\n");
    await mine.push("fix");
    const base = await wt.sha("main");
    // reading the target is enough (carol has no role on alice's public repository)
    const pr = await carol.as.pulls.create({
      repoId: upstream.id,
      sourceRepoId: fork.id,
      title: "A fix",
      sourceBranch: "fix",
      targetBranch: "main",
      headSha: head,
      baseSha: base,
    });
    const targetDir = repoGitDir(alice.user.username, upstream.name);
    expect(await readRef(targetDir, `refs/pull/${pr.number}/head`)).toBe(head);
    const got = await alice.as.pulls.get({ repoId: upstream.id, number: pr.number });
    expect(got).toMatchObject({ sourceRepo: { owner: carol.user.username, name: "carol-fork" }, sourceRepoId: fork.id });
    expect(
      await codeOf(
        carol.as.pulls.create({
          repoId: upstream.id,
          sourceRepoId: fork.id,
          title: "again",
          sourceBranch: "fix",
          targetBranch: "main",
          headSha: head,
          baseSha: base,
        }),
      ),
    ).toBe("CONFLICT");
    // a push to the fork moves the head, and the commit is fetched into the target
    const next = await mine.commit("fix.txt", "better fix\n");
    await mine.push("fix");
    expect((await alice.as.pulls.get({ repoId: upstream.id, number: pr.number })).headSha).toBe(next);
    expect(await readRef(targetDir, `refs/pull/${pr.number}/head`)).toBe(next);
    expect(await git(targetDir, "cat-file", "-t", next)).toBe("commit");
    // an unrelated repository cannot be a source
    const other = await carol.as.repos.create({ name: `other${Math.random().toString(36).slice(2, 6)}` });
    expect(
      await messageOf(
        carol.as.pulls.create({
          repoId: upstream.id,
          sourceRepoId: other.id,
          title: "x",
          sourceBranch: "fix",
          targetBranch: "main",
          headSha: head,
          baseSha: base,
        }),
      ),
    ).toMatch(/not a fork/);
  });

  it("keeps forks working when the parent is deleted (objects copied in, alternates removed)", async () => {
    const parent = await alice.as.repos.create({ name: `tmp${Math.random().toString(36).slice(2, 8)}` });
    const pwt = await seededWorkTree(remoteOf(server, alice.token, alice.user.username, parent.name));
    const tip = await pwt.commit("more.txt", "more\n");
    await pwt.push("main");
    const fork = await bob.as.repos.fork({ repoId: parent.id, name: `keep-${parent.name}` });
    const forkDir = repoGitDir(bob.user.username, fork.name);
    expect(existsSync(alternatesFile(forkDir))).toBe(true);
    await alice.as.repos.delete({ repoId: parent.id });
    expect(existsSync(repoGitDir(alice.user.username, parent.name))).toBe(false);
    expect(existsSync(alternatesFile(forkDir))).toBe(false);
    await git(forkDir, "fsck", "--no-progress", "--strict");
    const got = await bob.as.repos.get({ owner: bob.user.username, name: fork.name });
    expect(got.parent).toBeNull();
    const clone = await cloneOf(remoteOf(server, bob.token, bob.user.username, fork.name));
    expect(await clone.sha("HEAD")).toBe(tip);
  });
});
