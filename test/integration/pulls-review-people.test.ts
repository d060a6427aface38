/**
 * Pull request labels and reviewers (docs/pulls.md "Review"): the repository's issue
 * labels, review requests fulfilled by reviews, the reviewers list with latest states, and their
 * timeline events — through the real router on a real pushed repository.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { codeOf, messageOf, team, type Member, type Server, type WorkTree } from "./pulls-fixtures";

let server: Server;
let owner: Member, writer: Member, reader: Member, reader2: Member, stranger: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
let main: string;
let n = 0;

async function openPull() {
  const name = `people-${++n}`;
  await wt.run("checkout", "--quiet", "-B", name, "main");
  const head = await wt.commit(`${name}.txt`, `${name}\n`);
  await wt.push(name);
  await wt.run("checkout", "--quiet", "main");
  return writer.as.pulls.create({ repoId: repo.id, title: name, sourceBranch: name, targetBranch: "main", headSha: head, baseSha: main });
}

const events = async (prId: string, types: string[]) =>
  (await owner.as.pulls.timeline({ prId }))
    .filter((e) => types.includes(e.type))
    .map((e) => ({ type: e.type, data: e.data, actor: e.actor?.id }));

beforeAll(async () => {
  ({ server, owner, writer, reader, reader2, stranger, repo, wt } = await team("l"));
  main = await wt.sha("main");
});

afterAll(async () => {
  await server.close();
});

describe("labels", () => {
  it("adds and removes the repository's labels (write permission), with labeled / unlabeled events", async () => {
    const pr = await openPull();
    const bug = (await owner.as.issues.createLabel({ repoId: repo.id, name: "bug", color: "#d73a4a" })) as { id: string };
    const docs = (await owner.as.issues.createLabel({ repoId: repo.id, name: "Docs", color: "#0075ca", description: "documentation" })) as {
      id: string;
    };
    expect(await writer.as.pulls.labels({ prId: pr.id })).toEqual([]);
    await writer.as.pulls.addLabel({ prId: pr.id, labelId: docs.id });
    const after = await writer.as.pulls.addLabel({ prId: pr.id, labelId: bug.id });
    expect(after).toEqual([
      { id: bug.id, name: "bug", color: "#d73a4a", description: null },
      { id: docs.id, name: "Docs", color: "#0075ca", description: "documentation" },
    ]);
    expect(await writer.as.pulls.addLabel({ prId: pr.id, labelId: bug.id })).toHaveLength(2); // again: nothing changes
    expect((await reader.as.pulls.labels({ prId: pr.id })).map((l) => l.name)).toEqual(["bug", "Docs"]);
    expect((await reader.as.pulls.get({ repoId: repo.id, number: pr.number })).labels.map((l) => l.name)).toEqual(["bug", "Docs"]);
    expect(await messageOf(reader.as.pulls.addLabel({ prId: pr.id, labelId: bug.id }))).toMatch(/write permission/);
    expect(await codeOf(reader.as.pulls.removeLabel({ prId: pr.id, labelId: bug.id }))).toBe("FORBIDDEN");
    expect(await writer.as.pulls.removeLabel({ prId: pr.id, labelId: bug.id })).toEqual([
      { id: docs.id, name: "Docs", color: "#0075ca", description: "documentation" },
    ]);
    expect(await writer.as.pulls.removeLabel({ prId: pr.id, labelId: bug.id })).toHaveLength(1); // not there: nothing changes
    expect(await events(pr.id, ["labeled", "unlabeled"])).toEqual([
      { type: "labeled", data: { label: { id: docs.id, name: "Docs", color: "#0075ca" } }, actor: writer.user.id },
      { type: "labeled", data: { label: { id: bug.id, name: "bug", color: "#d73a4a" } }, actor: writer.user.id },
      { type: "unlabeled", data: { label: { id: bug.id, name: "bug", color: "#d73a4a" } }, actor: writer.user.id },
    ]);
  });

  it("answers NOT_FOUND for a label of another repository or an unknown one", async () => {
    const pr = await openPull();
    const elsewhere = await owner.as.repos.create({ name: `other${n}` });
    const foreign = (await owner.as.issues.createLabel({ repoId: elsewhere.id, name: "bug", color: "#000000" })) as { id: string };
    expect(await messageOf(owner.as.pulls.addLabel({ prId: pr.id, labelId: foreign.id }))).toMatch(/label not found/);
    expect(await codeOf(owner.as.pulls.removeLabel({ prId: pr.id, labelId: foreign.id }))).toBe("NOT_FOUND");
    expect(await codeOf(owner.as.pulls.addLabel({ prId: pr.id, labelId: "00000000-0000-4000-8000-000000000000" }))).toBe("NOT_FOUND");
    expect(await codeOf(owner.as.pulls.addLabel({ prId: pr.id, labelId: "nope" }))).toBe("BAD_REQUEST");
    expect(await codeOf(stranger.as.pulls.labels({ prId: pr.id }))).toBe("NOT_FOUND");
  });
});

describe("reviewers", () => {
  it("requests reviews; refuses the author, duplicates, unknown users and users who cannot read the repository", async () => {
    const pr = await openPull();
    const list = await writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id });
    expect(list).toEqual([
      {
        user: { id: reader.user.id, username: reader.user.username, name: null },
        requested: true,
        state: null,
        reviewId: null,
        commitSha: null,
        isStale: false,
        reviewedAt: null,
      },
    ]);
    expect(await messageOf(writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id }))).toMatch(/already requested/);
    expect(await codeOf(writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id }))).toBe("CONFLICT");
    expect(await messageOf(owner.as.pulls.requestReview({ prId: pr.id, reviewerId: writer.user.id }))).toMatch(
      /author cannot be requested/,
    );
    expect(await messageOf(owner.as.pulls.requestReview({ prId: pr.id, reviewerId: stranger.user.id }))).toMatch(/cannot read/);
    expect(await codeOf(owner.as.pulls.requestReview({ prId: pr.id, reviewerId: "00000000-0000-4000-8000-000000000000" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(reader2.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id }))).toBe("FORBIDDEN");
    expect((await owner.as.pulls.get({ repoId: repo.id, number: pr.number })).requestedReviewers).toBe(1);
  });

  it("a review fulfils the request; re-requesting is allowed; the list keeps the latest verdict; events", async () => {
    const pr = await openPull();
    await writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id });
    await writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader2.user.id });
    const approval = await reader.as.pulls.addReview({ prId: pr.id, state: "approved", commitSha: pr.headSha });
    let list = await writer.as.pulls.reviewers({ prId: pr.id });
    expect(list.map((r) => [r.user.id, r.requested, r.state])).toEqual([
      [reader2.user.id, true, null],
      [reader.user.id, false, "approved"],
    ]);
    // a later comment review does not undo the approval
    await reader.as.pulls.addReview({ prId: pr.id, state: "commented", body: "nit", commitSha: pr.headSha });
    // the author's own comment review is not listed
    await writer.as.pulls.addReview({ prId: pr.id, state: "commented", body: "thanks", commitSha: pr.headSha });
    list = await writer.as.pulls.reviewers({ prId: pr.id });
    expect(list.find((r) => r.user.id === reader.user.id)).toMatchObject({
      state: "approved",
      reviewId: approval.id,
      commitSha: pr.headSha,
      isStale: false,
    });
    expect(list.some((r) => r.user.id === writer.user.id)).toBe(false);
    // re-request after the review: requested again, with the last verdict kept
    await writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id });
    list = await writer.as.pulls.reviewers({ prId: pr.id });
    expect(list.map((r) => [r.user.id, r.requested, r.state])).toEqual([
      [reader2.user.id, true, null],
      [reader.user.id, true, "approved"],
    ]);
    await reader.as.pulls.addReview({ prId: pr.id, state: "changes_requested", body: "on second thought", commitSha: pr.headSha });
    expect((await writer.as.pulls.reviewers({ prId: pr.id })).find((r) => r.user.id === reader.user.id)).toMatchObject({
      requested: false,
      state: "changes_requested",
    });
    // removing a request; removing again changes nothing
    expect((await writer.as.pulls.removeReviewRequest({ prId: pr.id, reviewerId: reader2.user.id })).map((r) => r.user.id)).toEqual([
      reader.user.id,
    ]);
    expect(await codeOf(writer.as.pulls.removeReviewRequest({ prId: pr.id, reviewerId: reader2.user.id }))).toBe("OK");
    const user = (m: Member) => ({ id: m.user.id, username: m.user.username, name: null });
    expect(await events(pr.id, ["review_requested", "review_request_removed"])).toEqual([
      { type: "review_requested", data: { reviewer: user(reader) }, actor: writer.user.id },
      { type: "review_requested", data: { reviewer: user(reader2) }, actor: writer.user.id },
      { type: "review_requested", data: { reviewer: user(reader) }, actor: writer.user.id },
      { type: "review_request_removed", data: { reviewer: user(reader2) }, actor: writer.user.id },
    ]);
  });

  it("requests only on an open pull request", async () => {
    const pr = await openPull();
    await writer.as.pulls.close({ prId: pr.id });
    expect(await messageOf(writer.as.pulls.requestReview({ prId: pr.id, reviewerId: reader.user.id }))).toMatch(
      /is closed: reviews can only be requested on an open pull request/,
    );
    expect(await writer.as.pulls.reviewers({ prId: pr.id })).toEqual([]);
  });
});
