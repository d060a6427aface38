/**
 * pulls.applySuggestions (GitHub's "Commit suggestions"; docs/pulls.md "Suggestions"): several
 * suggestions of one pull request as ONE commit with every suggester as co-author; overlapping
 * ranges, mixed pull requests and any invalid member refused with nothing committed. And a source
 * branch in a fork: only those who can write the fork may apply.
 */
import { describe, expect, it } from "vitest";
import { repoGitDir } from "@/server/git/paths";
import { readRef } from "@/server/git/pull-refs";
import { actorOf, callerFor } from "../helpers";
import { codeOf, messageOf } from "./issues-fixtures";
import { commitFiles, git, refsOf, rev } from "./merge-fixtures";
import { cliTree, insertPull, suggest, suggestionWorld } from "./pulls-suggestions-fixtures";

const trailer = (u: { username: string; name: string | null; email: string | null }) =>
  `Co-authored-by: ${u.name ?? u.username} <${u.email ?? `${u.username}@users.noreply.svc`}>`;

describe("pulls.applySuggestions", () => {
  it("applies suggestions across files as one commit with deduplicated co-author trailers", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const a = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "ONE" });
    const b = await suggest(w.db, pr, w.writer.id, { path: "src/app.ts", startLine: 5, line: 6, suggestion: "five\nsix\nseven" });
    const c = await suggest(w.db, pr, w.reader.id, { path: "crlf.txt", line: 4, suggestion: "D" });
    const d = await suggest(w.db, pr, w.owner.id, { path: "src/app.ts", line: 2, suggestion: "TWO" }); // adjacent, not overlapping; the applier's own
    const out = await w.as.owner.pulls.applySuggestions({ commentIds: [a.id, b.id, c.id, d.id, a.id] });
    const [reader, writer] = await Promise.all([w.reader.id, w.writer.id].map((id) => w.db.user.findUniqueOrThrow({ where: { id } })));
    expect(out.message).toBe(`Apply suggestions from code review\n\n${trailer(reader)}\n${trailer(writer)}`);
    expect(w.tip("feature")).toBe(out.commitSha);
    expect(git(w.gitDir, ["rev-list", "--count", `${head}..${out.commitSha}`]).trim()).toBe("1");
    expect(git(w.gitDir, ["log", "-1", "--format=%an%n%B", out.commitSha])).toBe(`${w.owner.username}\n${out.message}\n\n`);
    expect(git(w.gitDir, ["rev-parse", `${out.commitSha}^{tree}`]).trim()).toBe(
      cliTree(w, head, { "src/app.ts": "ONE\nTWO\nTHREE\nfour\nfive\nsix\nseven\n", "crlf.txt": "a\r\nb\r\nc\r\nD\r\n" }),
    );
    const rows = await w.db.pullRequestComment.findMany({ where: { pullRequestId: pr.id } });
    expect(rows.map((r) => [r.appliedSha, r.resolvedById])).toEqual(rows.map(() => [out.commitSha, w.owner.id]));
    const pull = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id }, include: { events: true } });
    expect(pull.headSha).toBe(out.commitSha);
    expect(pull.events.map((e) => [e.type, JSON.parse(e.data).commits])).toEqual([["pushed", 1]]);
  });

  it("refuses overlaps (listing them), mixed pull requests, any invalid member and missing permission, committing nothing", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const pr2 = await insertPull(w.db, w, { branch: "feature", head }, { target: "feature" });
    const refs = refsOf(w.gitDir);
    const x = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", startLine: 2, line: 3, suggestion: "x" });
    const y = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", startLine: 3, line: 4, suggestion: "y" });
    const z = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 4, suggestion: "z" });
    const ok = await suggest(w.db, pr, w.reader.id, { path: "docs/notes.md", line: 3, suggestion: "ok" });
    const m = await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, x.id, y.id, z.id] }));
    expect(m).toBe(
      `suggestions overlap, so they cannot be applied together: src/app.ts: comment ${x.id} (lines 2-3) and comment ${y.id} (lines 3-4); src/app.ts: comment ${y.id} (lines 3-4) and comment ${z.id} (lines 4-4)`,
    );
    const other = await suggest(w.db, pr2, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "o" });
    expect(await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, other.id] }))).toMatch(/different pull requests/);
    // a comment in a repository the caller cannot read is "not found", whatever else the batch holds
    const elsewhere = await suggestionWorld();
    const hidden = await suggest(
      w.db,
      await insertPull(w.db, elsewhere, { branch: "feature", head: elsewhere.tip("feature") }),
      elsewhere.owner.id,
      { path: "src/app.ts", line: 1, suggestion: "h" },
    );
    expect(await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, hidden.id] }))).toBe(`comment ${hidden.id} not found`);
    const outdated = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 3, suggestion: "3", commitSha: w.first });
    expect(await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, outdated.id] }))).toBe(
      `comment ${outdated.id}: the suggestion is outdated: lines 3-3 of "src/app.ts" changed since it was made; suggest again on the current lines`,
    );
    const left = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "l", side: "LEFT" });
    expect(await codeOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, left.id] }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.reader.pulls.applySuggestions({ commentIds: [ok.id] }))).toBe("FORBIDDEN");
    expect(await codeOf(w.as.stranger.pulls.applySuggestions({ commentIds: [ok.id] }))).toBe("NOT_FOUND");
    expect(await codeOf((await callerFor(actorOf(w.owner, ["repo:read"]))).pulls.applySuggestions({ commentIds: [ok.id] }))).toBe(
      "FORBIDDEN",
    );
    expect(await codeOf(w.as.anon.pulls.applySuggestions({ commentIds: [ok.id] }))).toBe("UNAUTHORIZED");
    expect(await codeOf(w.as.owner.pulls.applySuggestions({ commentIds: [] }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.owner.pulls.applySuggestions({ commentIds: Array.from({ length: 101 }, () => ok.id) }))).toBe("BAD_REQUEST");
    expect(await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [ok.id, "00000000-0000-4000-8000-000000000000"] }))).toMatch(
      /comment 00000000-0000-4000-8000-000000000000 not found/,
    );
    expect(refsOf(w.gitDir)).toBe(refs);
    expect(await w.db.pullRequestComment.count({ where: { pullRequestId: pr.id, appliedSha: { not: null } } })).toBe(0);
    // the valid ones together still apply
    expect((await w.as.writer.pulls.applySuggestions({ commentIds: [ok.id, x.id] })).success).toBe(true);
  });

  it("takes an optional commit message (trimmed, 1–65536 characters), single and batch, keeping the co-author trailers", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const reader = await w.db.user.findUniqueOrThrow({ where: { id: w.reader.id } });
    const a = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "ONE" });
    const b = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 2, suggestion: "TWO" });
    const c = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 3, suggestion: "THREE" });
    // refused at the edge: nothing committed
    expect(await codeOf(w.as.owner.pulls.applySuggestion({ commentId: a.id, message: "  \n " }))).toBe("BAD_REQUEST");
    expect(await messageOf(w.as.owner.pulls.applySuggestions({ commentIds: [a.id], message: "x".repeat(65_537) }))).toMatch(
      /message is longer than 65536 characters/,
    );
    expect(w.tip("feature")).toBe(head);
    const one = await w.as.owner.pulls.applySuggestion({ commentId: a.id, message: "  Tidy the first line\n\nBecause.  " });
    expect(one.message).toBe(`Tidy the first line\n\nBecause.\n\n${trailer(reader)}`);
    expect(git(w.gitDir, ["log", "-1", "--format=%s", one.commitSha]).trim()).toBe("Tidy the first line");
    // a trailer the message already holds is not repeated
    const two = await w.as.owner.pulls.applySuggestions({ commentIds: [b.id, c.id], message: `Two lines\n\n${trailer(reader)}` });
    expect(two.message).toBe(`Two lines\n\n${trailer(reader)}`);
    expect(git(w.gitDir, ["log", "-1", "--format=%s", two.commitSha]).trim()).toBe("Two lines");
    // without a message: the defaults (GitHub's)
    const d = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 4, suggestion: "FOUR" });
    const dflt = await w.as.owner.pulls.applySuggestion({ commentId: d.id });
    expect(dflt.message).toBe(`Apply suggestion from @${reader.username}\n\n${trailer(reader)}`);
  });
});

describe("suggestions on a pull request from a fork", () => {
  it("only someone who can write the fork may apply; the target's refs/pull/N/head follows", async () => {
    const w = await suggestionWorld({ isPrivate: false });
    const fork = await w.as.stranger.repos.fork({ repoId: w.repoId });
    const forkDir = repoGitDir(w.stranger.username, fork.name);
    git(w.work, ["checkout", "-q", "-b", "fix", "feature"]);
    commitFiles(w.work, { "fix.txt": "broken\nline\n" }, "fix", "Stranger");
    git(w.work, ["push", "-q", forkDir, "fix"]);
    git(w.work, ["checkout", "-q", "main"]);
    const head = rev(forkDir, "refs/heads/fix");
    const pr = await insertPull(w.db, w, { repoId: fork.id, branch: "fix", head }, { authorId: w.stranger.id });
    git(w.gitDir, ["fetch", "-q", forkDir, `refs/heads/fix:refs/pull/${pr.number}/head`]);
    const c = await suggest(w.db, pr, w.owner.id, { path: "fix.txt", line: 1, suggestion: "fixed" });
    const before = [refsOf(forkDir), refsOf(w.gitDir)];
    for (const caller of [w.as.owner, w.as.writer]) {
      expect(await messageOf(caller.pulls.applySuggestion({ commentId: c.id }))).toBe(
        `the source branch "fix" is in the fork ${w.stranger.username}/${fork.name}, which you cannot write to`,
      );
      expect(await messageOf(caller.pulls.applySuggestions({ commentIds: [c.id] }))).toMatch(/which you cannot write to/);
    }
    expect([refsOf(forkDir), refsOf(w.gitDir)]).toEqual(before);
    // the fork's owner (the author) applies the maintainer's suggestion
    const out = await w.as.stranger.pulls.applySuggestion({ commentId: c.id });
    expect(rev(forkDir, "refs/heads/fix")).toBe(out.commitSha);
    expect(git(forkDir, ["show", `${out.commitSha}:fix.txt`])).toBe("fixed\nline\n");
    expect(await readRef(w.gitDir, `refs/pull/${pr.number}/head`)).toBe(out.commitSha);
    expect(rev(w.gitDir, "refs/heads/feature")).toBe(w.tip("feature")); // the parent's branches untouched
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(out.commitSha);
    git(w.gitDir, ["fsck", "--strict"]);
  });
});
