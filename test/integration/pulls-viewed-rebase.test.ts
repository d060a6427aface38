/**
 * Viewed marks across rebases (docs/pulls.md "Pages", server/services/pulls/viewed-files.ts): a
 * mark keeps the file's patch id, so a force-push of the pull request rebased onto a moved base,
 * whose upstream commits changed the same file elsewhere, keeps it; amending the file's own change
 * makes it "changed". A mark without a patch id (older marks) keeps the blob rule. Real git pushes
 * through the smart HTTP server and the real router.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { member, remoteOf, seededWorkTree, startGitServer, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member, reader: Member;
let repo: { id: string; name: string };
let wt: WorkTree;

const lines = (edit: Record<number, string> = {}) => Array.from({ length: 30 }, (_, i) => edit[i + 1] ?? `line ${i + 1}`).join("\n") + "\n";

beforeAll(async () => {
  server = await startGitServer();
  [owner, reader] = await Promise.all([member("vro"), member("vrr")]);
  repo = await owner.as.repos.create({ name: `v${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: reader.user.username, role: "read" });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
});

afterAll(async () => {
  await server.close();
});

describe("viewed marks and rebases", () => {
  it("keeps a mark over a rebase that leaves the file's change as it was, and reports it changed once the change differs", async () => {
    await wt.commit("app.txt", lines());
    await wt.push("main");
    const base = await wt.sha("main");
    await wt.run("checkout", "--quiet", "-b", "topic");
    await wt.commit("app.txt", lines({ 20: "line 20, reviewed" }));
    const head = await wt.commit("notes.txt", "notes\n");
    await wt.push("topic");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "R",
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: head,
      baseSha: base,
    });
    const blobOf = async (path: string) => (await owner.as.pulls.getDiff({ prId: pr.id, path })).files[0].newSha;
    const seen = await blobOf("app.txt");
    await owner.as.pulls.setFileViewed({ prId: pr.id, path: "app.txt", viewed: true, blobSha: seen });
    // an older mark (no patch id) by the reader on the same version
    const db = await getDb();
    await db.pullRequestFileView.create({ data: { pullRequestId: pr.id, userId: reader.user.id, path: "app.txt", blobSha: seen } });
    const marks = async (m: Member) => (await m.as.pulls.viewedFiles({ prId: pr.id })).map(({ path, state }) => ({ path, state }));
    expect(await marks(owner)).toEqual([{ path: "app.txt", state: "viewed" }]);
    expect(await marks(reader)).toEqual([{ path: "app.txt", state: "viewed" }]);

    // upstream changes the same file elsewhere; the pull request is rebased onto it and force-pushed
    await wt.run("checkout", "--quiet", "main");
    await wt.commit("app.txt", lines({ 3: "line 3, upstream" }));
    await wt.push("main");
    await wt.run("checkout", "--quiet", "topic");
    await wt.run("rebase", "--quiet", "main");
    await wt.push("--force", "topic");
    expect((await owner.as.pulls.get({ repoId: repo.id, number: pr.number })).headSha).toBe(await wt.sha("topic"));
    expect(await blobOf("app.txt")).not.toBe(seen); // the blob rule alone would clear the mark
    expect(await marks(owner)).toEqual([{ path: "app.txt", state: "viewed" }]);
    expect(await marks(reader)).toEqual([{ path: "app.txt", state: "changed" }]);

    // the file's own change is amended: the mark no longer applies
    await wt.run("reset", "--quiet", "--hard", "HEAD~1");
    await wt.commit("app.txt", lines({ 3: "line 3, upstream", 20: "line 20, reviewed again" }), "amend");
    await wt.commit("notes.txt", "notes\n");
    await wt.push("--force", "topic");
    const after = await owner.as.pulls.viewedFiles({ prId: pr.id });
    // the mark says which revision it was made on (the first head), also after two force-pushes
    expect(after).toEqual([
      { path: "app.txt", blobSha: seen, patchId: expect.stringMatching(/^[0-9a-f]{40}$/), state: "changed", revision: 1 },
    ]);
    // an older mark (no head kept) has no revision
    expect((await reader.as.pulls.viewedFiles({ prId: pr.id }))[0].revision).toBeNull();

    // marking it again records the new change
    await owner.as.pulls.setFileViewed({ prId: pr.id, path: "app.txt", viewed: true, blobSha: await blobOf("app.txt") });
    expect(await marks(owner)).toEqual([{ path: "app.txt", state: "viewed" }]);
    expect((await owner.as.pulls.viewedFiles({ prId: pr.id }))[0].revision).toBe(3);
    await wt.run("checkout", "--quiet", "main");
  });
});
