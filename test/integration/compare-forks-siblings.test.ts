/**
 * Compare between sibling forks (docs/pulls.md "Forks"): two forks of one parent share
 * only the parent's objects, so repos.compare {headRepoId: sibling} runs in the base fork with
 * the sibling's object folder added for the one git process — nothing is fetched or written. The
 * pull request the compare page then opens (sibling → sibling) works; repositories outside the
 * network (a fork's fork seen from its parent's sibling, a fork whose parent was deleted) are
 * BAD_REQUEST.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoGitDir } from "@/server/git/paths";
import {
  git,
  cloneOf,
  codeOf,
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
let alice: Member, bob: Member, carol: Member, dave: Member;
let upstream: { id: string; name: string };
let wt: WorkTree;

beforeAll(async () => {
  server = await startGitServer();
  [alice, bob, carol, dave] = await Promise.all([member("ali"), member("bob"), member("car"), member("dav")]);
  upstream = await alice.as.repos.create({ name: `sib${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, alice.token, alice.user.username, upstream.name));
});

afterAll(async () => {
  await server.close();
});

/** True when the bare repository holds (or reaches through its own alternates) object `sha`. */
async function reaches(gitDir: string, sha: string): Promise<boolean> {
  return git(gitDir, "cat-file", "-e", `${sha}^{commit}`).then(
    () => true,
    () => false,
  );
}

describe("repos.compare between sibling forks", () => {
  it("compares a sibling fork's branch without writing, opens the pull request, and refuses repositories outside the network", async () => {
    const bobFork = await bob.as.repos.fork({ repoId: upstream.id });
    const carolFork = await carol.as.repos.fork({ repoId: upstream.id });
    const bobDir = repoGitDir(bob.user.username, bobFork.name);
    const carolDir = repoGitDir(carol.user.username, carolFork.name);

    // bob's branch (two commits, only in bob's fork); carol's main moves on (only in carol's fork)
    const bobWt = await cloneOf(remoteOf(server, bob.token, bob.user.username, bobFork.name));
    await bobWt.run("checkout", "--quiet", "-b", "idea");
    await bobWt.commit("idea.txt", "an idea\n", "Add an idea");
    const head = await bobWt.commit("docs/idea.md", "# Idea\n", "Document the idea");
    await bobWt.push("idea");
    const carolWt = await cloneOf(remoteOf(server, carol.token, carol.user.username, carolFork.name));
    const carolMain = await carolWt.commit("carol.txt", "carol\n", "Carol's change");
    await carolWt.push("main");
    expect(await reaches(carolDir, head)).toBe(false);

    const r = await carol.as.repos.compare({ repoId: carolFork.id, base: "main", head: "idea", headRepoId: bobFork.id });
    expect(r).toMatchObject({
      baseSha: carolMain,
      headSha: head,
      mergeBaseSha: await wt.sha("main"),
      aheadBy: 2,
      behindBy: 1,
      totalCommits: 2,
    });
    expect(r.commits.map((c) => c.message)).toEqual(["Add an idea", "Document the idea"]);
    expect(r.diff.files.map((f) => f.newPath)).toEqual(["docs/idea.md", "idea.txt"]);
    // a page of the diff (the viewer's paths filter) works the same way
    const page = await carol.as.repos.compare({
      repoId: carolFork.id,
      base: "main",
      head: "idea",
      headRepoId: bobFork.id,
      paths: ["idea.txt"],
    });
    expect(page.diff.files.map((f) => [f.newPath, f.additions])).toEqual([["idea.txt", 1]]);
    // and the other way round: bob's fork compares with carol's main
    expect(await bob.as.repos.compare({ repoId: bobFork.id, base: "idea", head: "main", headRepoId: carolFork.id })).toMatchObject({
      headSha: carolMain,
      aheadBy: 1,
      behindBy: 2,
    });
    // a read writes nothing: carol's fork still lacks bob's commit, bob's lacks carol's
    expect(await reaches(carolDir, head)).toBe(false);
    expect(await reaches(bobDir, carolMain)).toBe(false);
    // anonymous readers compare public forks too
    const anon = await (await import("../helpers")).callerFor(null);
    expect(await codeOf(anon.repos.compare({ repoId: carolFork.id, base: "main", head: "idea", headRepoId: bobFork.id }))).toBe("OK");

    // the network lists the sibling, so the compare page offers it
    expect((await carol.as.repos.network({ repoId: carolFork.id })).map((n) => [n.id, n.isParent])).toEqual([
      [upstream.id, true],
      [bobFork.id, false],
    ]);

    // the pull request the compare page opens from those values: bob's idea into carol's fork
    const pr = await bob.as.pulls.create({
      repoId: carolFork.id,
      title: "An idea",
      sourceBranch: "idea",
      targetBranch: "main",
      headSha: r.headSha,
      baseSha: r.baseSha,
      sourceRepoId: bobFork.id,
    });
    const diff = await carol.as.pulls.getDiff({ prId: pr.id });
    expect(diff.files.map((f) => f.newPath)).toEqual(["docs/idea.md", "idea.txt"]);
    expect(await reaches(carolDir, head)).toBe(true); // pulls.create fetched it into the target, as documented

    // outside the network: a fork of bob's fork seen from carol's fork (a "cousin")
    const daveFork = await dave.as.repos.fork({ repoId: bobFork.id });
    expect(await messageOf(carol.as.repos.compare({ repoId: carolFork.id, base: "main", head: "idea", headRepoId: daveFork.id }))).toMatch(
      /not in the fork network/,
    );
    // ... and siblings whose parent was deleted (each fork is detached, on its own)
    await alice.as.repos.delete({ repoId: upstream.id });
    expect(await codeOf(carol.as.repos.compare({ repoId: carolFork.id, base: "main", head: "idea", headRepoId: bobFork.id }))).toBe(
      "BAD_REQUEST",
    );
    expect(await carol.as.repos.network({ repoId: carolFork.id })).toEqual([]);
  });
});
