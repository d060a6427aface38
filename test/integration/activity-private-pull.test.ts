/**
 * A public issue closed by a pull request merged in a private repository (docs/issues.md
 * "Activity", security.md "Private repositories seen from elsewhere"): the activity names the pull
 * request only to those who can read its repository; everyone else reads "a private pull request".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callerFor } from "../helpers";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server } from "./pulls-fixtures";

let server: Server;
let alice: Member, bob: Member, stranger: Member;
let pub: { id: string; name: string };
let priv: { id: string; name: string };
let issueNumber: number;
let pullNumber: number;

beforeAll(async () => {
  server = await startGitServer();
  [alice, bob, stranger] = await Promise.all([member("apa"), member("apb"), member("aps")]);
  const suffix = Math.random().toString(36).slice(2, 8);
  pub = await bob.as.repos.create({ name: `pub${suffix}` });
  await bob.as.repos.addCollaborator({ repoId: pub.id, username: alice.user.username, role: "write" });
  issueNumber = (await bob.as.issues.create({ repoId: pub.id, title: "public bug" })).number;
  priv = await alice.as.repos.create({ name: `priv${suffix}`, isPrivate: true });
  const wt = await seededWorkTree(remoteOf(server, alice.token, alice.user.username, priv.name));
  const baseSha = await wt.sha("main");
  await wt.run("checkout", "--quiet", "-b", "fix");
  const headSha = await wt.commit("fix.txt", "fixed\n");
  await wt.push("fix");
  const pr = await alice.as.pulls.create({
    repoId: priv.id,
    title: "secret fix",
    body: `Fixes ${bob.user.username}/${pub.name}#${issueNumber}`,
    sourceBranch: "fix",
    targetBranch: "main",
    headSha,
    baseSha,
  });
  pullNumber = pr.number;
  await alice.as.pulls.merge({ prId: pr.id });
});

afterAll(async () => {
  await server.close();
});

describe("closing a public issue from a private pull request", () => {
  it("closes the issue", async () => {
    expect(await bob.as.issues.get({ repoId: pub.id, number: issueNumber })).toMatchObject({ state: "closed" });
  });

  it("names the pull request only to those who can read its repository", async () => {
    const closing = async (c: Awaited<ReturnType<typeof callerFor>>) =>
      (await c.issues.getActivity({ repoId: pub.id, number: issueNumber })).find((a) => a.field === "pull_request");
    const named = `${alice.user.username}/${priv.name}#${pullNumber}`;
    expect(await closing(alice.as)).toMatchObject({ action: "status_changed", newValue: named });
    for (const c of [await callerFor(null), stranger.as, bob.as]) {
      const entry = await closing(c);
      expect(entry).toMatchObject({ action: "status_changed", newValue: "a private pull request" });
      expect(JSON.stringify(entry)).not.toContain(priv.name);
    }
    // the repository-wide log is redacted the same way
    const anonRepo = await (await callerFor(null)).issues.getRepoActivity({ repoId: pub.id });
    expect(JSON.stringify(anonRepo)).not.toContain(priv.name);
    const aliceRepo = await alice.as.issues.getRepoActivity({ repoId: pub.id });
    expect(aliceRepo.find((a) => a.field === "pull_request")?.newValue).toBe(named);
  });

  it("shows the name once the reader gains access", async () => {
    await alice.as.repos.addCollaborator({ repoId: priv.id, username: stranger.user.username, role: "read" });
    const acts = await stranger.as.issues.getActivity({ repoId: pub.id, number: issueNumber });
    expect(acts.find((a) => a.field === "pull_request")?.newValue).toBe(`${alice.user.username}/${priv.name}#${pullNumber}`);
  });
});
