/**
 * Compare across a fork (docs/pulls.md "Forks"): repos.compare
 * with headRepoId runs in the fork (it reaches the parent's objects through alternates) and
 * answers like a same-repository compare; repos.network lists the readable parent and forks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../helpers";
import {
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
let alice: Member, bob: Member, carol: Member;
let upstream: { id: string; name: string };
let wt: WorkTree;

beforeAll(async () => {
  server = await startGitServer();
  [alice, bob, carol] = await Promise.all([member("ali"), member("bob"), member("car")]);
  upstream = await alice.as.repos.create({ name: `cmp${Math.random().toString(36).slice(2, 8)}` });
  wt = await seededWorkTree(remoteOf(server, alice.token, alice.user.username, upstream.name));
});

afterAll(async () => {
  await server.close();
});

describe("repos.compare across a fork", () => {
  it("compares the parent's branch with a fork's branch, lists the network, and refuses unrelated repositories", async () => {
    const fork = await bob.as.repos.fork({ repoId: upstream.id });
    const mine = await cloneOf(remoteOf(server, bob.token, bob.user.username, fork.name));
    await mine.run("checkout", "--quiet", "-b", "idea");
    const head = await mine.commit("idea.txt", "an idea\n", "Add an idea");
    await mine.push("idea");
    // the parent moves on too: the fork's branch is 1 ahead, 1 behind
    await wt.commit("news.txt", "news\n", "News on main");
    await wt.push("main");

    const r = await alice.as.repos.compare({ repoId: upstream.id, base: "main", head: "idea", headRepoId: fork.id });
    expect(r).toMatchObject({ headSha: head, baseSha: await wt.sha("main"), aheadBy: 1, behindBy: 1, totalCommits: 1 });
    expect(r.diff.files.map((f) => f.newPath)).toEqual(["idea.txt"]);
    // the other way round (the fork compares with its parent's branch) runs in the fork as well
    const back = await bob.as.repos.compare({ repoId: fork.id, base: "idea", head: "main", headRepoId: upstream.id });
    expect(back).toMatchObject({ aheadBy: 1, behindBy: 1 });
    // and the pull request from the compare page's values opens
    const pr = await bob.as.pulls.create({
      repoId: upstream.id,
      title: "Add an idea",
      sourceBranch: "idea",
      targetBranch: "main",
      headSha: r.headSha,
      baseSha: r.baseSha,
      sourceRepoId: fork.id,
    });
    expect(pr.number).toBeGreaterThan(0);

    // the network: the parent sees its fork; the fork sees its parent, marked
    expect(await alice.as.repos.network({ repoId: upstream.id })).toEqual([
      { id: fork.id, owner: bob.user.username, name: fork.name, isParent: false },
    ]);
    expect(await bob.as.repos.network({ repoId: fork.id })).toEqual([
      { id: upstream.id, owner: alice.user.username, name: upstream.name, isParent: true },
    ]);

    // unknown head branch, a repository outside the network, a head repository the caller cannot read
    expect(await codeOf(alice.as.repos.compare({ repoId: upstream.id, base: "main", head: "nope", headRepoId: fork.id }))).toBe(
      "NOT_FOUND",
    );
    const other = await carol.as.repos.create({ name: `oth${Math.random().toString(36).slice(2, 8)}` });
    expect(await messageOf(alice.as.repos.compare({ repoId: upstream.id, base: "main", head: "main", headRepoId: other.id }))).toMatch(
      /not in the fork network/,
    );
    const hidden = await carol.as.repos.create({ name: `hid${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
    expect(await codeOf(alice.as.repos.compare({ repoId: upstream.id, base: "main", head: "main", headRepoId: hidden.id }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await codeOf((await callerFor(null)).repos.compare({ repoId: upstream.id, base: "main", head: "idea", headRepoId: fork.id })),
    ).toBe("OK");
  });
});
