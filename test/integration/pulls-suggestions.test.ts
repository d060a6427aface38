/**
 * pulls.applySuggestion through the real router on real repositories (docs/pulls.md "Suggestions"):
 * the commit equals what the git CLI makes for the same edit (trees compared), CRLF and "no newline
 * at end of file" kept, the pull request follows (headSha, refs/pull/N/head, "pushed" event), the
 * thread is resolved; every refusal leaves the branch untouched; two concurrent applies on the same
 * lines: one wins, the other fails cleanly.
 */
import { describe, expect, it } from "vitest";
import { readRef } from "@/server/git/pull-refs";
import { actorOf, callerFor } from "../helpers";
import { codeOf, messageOf } from "./issues-fixtures";
import { git, refsOf } from "./merge-fixtures";
import { cliTree, FILES, insertPull, suggest, suggestionWorld } from "./pulls-suggestions-fixtures";

describe("pulls.applySuggestion", () => {
  it("commits the suggested lines as the applier with the suggester as co-author; the pull request follows and the thread is resolved", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const root = await suggest(w.db, pr, w.reader.id, {
      path: "src/app.ts",
      startLine: 2,
      line: 3,
      suggestion: "deux\ntrois\nthree and a half",
    });
    const reply = await w.db.pullRequestComment.create({
      data: { pullRequestId: pr.id, authorId: w.owner.id, body: "+1", replyToId: root.id, path: "src/app.ts", line: 3, side: "RIGHT" },
    });

    const out = await w.as.writer.pulls.applySuggestion({ commentId: root.id });
    const reader = await w.db.user.findUniqueOrThrow({ where: { id: w.reader.id } });
    const writer = await w.db.user.findUniqueOrThrow({ where: { id: w.writer.id } });
    const message = `Apply suggestion from @${reader.username}\n\nCo-authored-by: ${reader.name ?? reader.username} <${reader.email ?? `${reader.username}@users.noreply.svc`}>`;
    expect(out).toEqual({ success: true, commitSha: expect.stringMatching(/^[0-9a-f]{40}$/), message });
    expect(w.tip("feature")).toBe(out.commitSha);
    expect(git(w.gitDir, ["log", "-1", "--format=%P|%an|%cn|%B", out.commitSha])).toBe(
      `${head}|${writer.name ?? writer.username}|${writer.name ?? writer.username}|${message}\n\n`,
    );
    // the same edit made with the git CLI gives the same tree
    expect(git(w.gitDir, ["rev-parse", `${out.commitSha}^{tree}`]).trim()).toBe(
      cliTree(w, head, { "src/app.ts": "one\ndeux\ntrois\nthree and a half\nfour\nfive\nsix\n" }),
    );
    // the pull request: head, refs/pull/N/head, a "pushed" event by the applier
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id }, include: { events: true } });
    expect(row.headSha).toBe(out.commitSha);
    expect(await readRef(w.gitDir, `refs/pull/${pr.number}/head`)).toBe(out.commitSha);
    expect(row.events.map((e) => [e.type, JSON.parse(e.data), e.actorId])).toEqual([
      ["pushed", { commits: 1, before: head, after: out.commitSha }, w.writer.id],
    ]);
    // the comment records the commit; its thread is resolved by the applier
    const [c, r] = await Promise.all([root, reply].map((x) => w.db.pullRequestComment.findUniqueOrThrow({ where: { id: x.id } })));
    expect(c).toMatchObject({ appliedSha: out.commitSha, resolvedById: w.writer.id });
    expect(c.resolvedAt).toBeInstanceOf(Date);
    expect(r.appliedSha).toBeNull();
    git(w.gitDir, ["fsck", "--strict"]);

    // a suggestion in a reply resolves its thread's root
    const head2 = out.commitSha;
    const pr2 = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    const root2 = await suggest(w.db, pr2, w.reader.id, { path: "docs/notes.md", line: 1, suggestion: null });
    const reply2 = await suggest(w.db, pr2, w.owner.id, {
      path: "docs/notes.md",
      line: 1,
      suggestion: "# Release notes",
      replyToId: root2.id,
    });
    const out2 = await w.as.owner.pulls.applySuggestion({ commentId: reply2.id });
    expect(out2.message).toBe(`Apply suggestion from @${w.owner.username}`); // own suggestion: no co-author trailer
    expect(git(w.gitDir, ["show", `${out2.commitSha}:docs/notes.md`])).toBe("# Release notes\n\nfirst\nsecond\n");
    expect(git(w.gitDir, ["rev-parse", `${out2.commitSha}^`]).trim()).toBe(head2);
    expect((await w.db.pullRequestComment.findUniqueOrThrow({ where: { id: root2.id } })).resolvedById).toBe(w.owner.id);
  });

  it("keeps CRLF line endings and a missing newline at the end of the file; an empty suggestion deletes the lines", async () => {
    const w = await suggestionWorld();
    let head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const apply = async (c: Parameters<typeof suggest>[3]) => {
      const comment = await suggest(w.db, { id: pr.id, headSha: head }, w.reader.id, c);
      const before = head;
      const { commitSha } = await w.as.owner.pulls.applySuggestion({ commentId: comment.id });
      head = commitSha;
      return { before, commitSha };
    };
    const blob = (sha: string, file: string) => git(w.gitDir, ["cat-file", "blob", `${sha}:${file}`]);

    const crlf = await apply({ path: "crlf.txt", startLine: 2, line: 3, suggestion: "B1\nB2\nB3\n" });
    expect(blob(crlf.commitSha, "crlf.txt")).toBe("a\r\nB1\r\nB2\r\nB3\r\nd\r\n");
    expect(git(w.gitDir, ["rev-parse", `${crlf.commitSha}^{tree}`]).trim()).toBe(
      cliTree(w, crlf.before, { "crlf.txt": "a\r\nB1\r\nB2\r\nB3\r\nd\r\n" }),
    );
    // a suggestion typed with CRLF into a CRLF file is not doubled
    const crlf2 = await apply({ path: "crlf.txt", line: 1, suggestion: "A\r\n" });
    expect(blob(crlf2.commitSha, "crlf.txt")).toBe("A\r\nB1\r\nB2\r\nB3\r\nd\r\n");

    const noeol = await apply({ path: "noeol.txt", startLine: 2, line: 3, suggestion: "Y\nZ" });
    expect(blob(noeol.commitSha, "noeol.txt")).toBe("x\nY\nZ");
    expect(git(w.gitDir, ["rev-parse", `${noeol.commitSha}^{tree}`]).trim()).toBe(cliTree(w, noeol.before, { "noeol.txt": "x\nY\nZ" }));
    const del = await apply({ path: "noeol.txt", startLine: 2, line: 3, suggestion: "" });
    expect(blob(del.commitSha, "noeol.txt")).toBe("x");
    const mid = await apply({ path: "src/app.ts", line: 4, suggestion: "" });
    expect(blob(mid.commitSha, "src/app.ts")).toBe("one\ntwo\nTHREE\nfive\nsix\n");
    const blank = await apply({ path: "src/app.ts", line: 1, suggestion: "\n" });
    expect(blob(blank.commitSha, "src/app.ts")).toBe("\ntwo\nTHREE\nfive\nsix\n");
    // untouched files keep their blobs
    expect(git(w.gitDir, ["rev-parse", `${head}:docs/notes.md`])).toBe(git(w.gitDir, ["rev-parse", `${w.first}:docs/notes.md`]));
    expect(blob(head, "docs/notes.md")).toBe(FILES["docs/notes.md"]);
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(head);
  });

  it("refuses, committing nothing: outdated lines, closed or merged, LEFT side, no suggestion, already applied, pending, no write permission", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const refs = refsOf(w.gitDir);
    const refused = async (commentId: string, code: string, message: RegExp, caller = w.as.owner) => {
      const p = caller.pulls.applySuggestion({ commentId });
      const [c, m] = await Promise.all([codeOf(p), messageOf(caller.pulls.applySuggestion({ commentId }))]);
      expect({ code: c, message: m }).toMatchObject({ code, message: expect.stringMatching(message) });
      expect(refsOf(w.gitDir)).toBe(refs);
    };
    // made on the first commit: line 3 changed since ("three" → "THREE"); line 1 did not
    const outdated = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 3, suggestion: "3", commitSha: w.first });
    await refused(outdated.id, "PRECONDITION_FAILED", /outdated: lines 3-3 of "src\/app.ts" changed/);
    const gone = await suggest(w.db, pr, w.reader.id, { path: "nope.txt", line: 1, suggestion: "x" });
    await refused(gone.id, "PRECONDITION_FAILED", /outdated: "nope.txt" is no longer a file/);
    const past = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 99, suggestion: "x" });
    await refused(past.id, "PRECONDITION_FAILED", /outdated/);
    const left = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "x", side: "LEFT" });
    await refused(left.id, "BAD_REQUEST", /LEFT side/);
    const plain = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: null });
    await refused(plain.id, "BAD_REQUEST", /has no suggestion/);
    const pending = await suggest(w.db, pr, w.owner.id, { path: "src/app.ts", line: 1, suggestion: "x", isPending: true });
    await refused(pending.id, "PRECONDITION_FAILED", /not submitted/);
    await refused(pending.id, "NOT_FOUND", /comment not found/, w.as.writer); // only its author sees a pending comment
    for (const path of ["../x", "/src/app.ts", "src//app.ts", "src/./app.ts"]) {
      const odd = await suggest(w.db, pr, w.reader.id, { path, line: 1, suggestion: "x" });
      await refused(odd.id, "PRECONDITION_FAILED", /no longer a file/);
    }
    const deleted = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "x" });
    await w.db.pullRequestComment.update({ where: { id: deleted.id }, data: { deletedAt: new Date() } });
    await refused(deleted.id, "NOT_FOUND", /comment not found/);
    // permission: a read collaborator, a token without repo:write, a stranger (cannot see it)
    const good = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "uno" });
    await refused(good.id, "FORBIDDEN", /write permission/, w.as.reader);
    await refused(good.id, "FORBIDDEN", /write permission|repo:write/, await callerFor(actorOf(w.owner, ["repo:read"])));
    await refused(good.id, "NOT_FOUND", /comment not found/, w.as.stranger);
    expect(await codeOf(w.as.owner.pulls.applySuggestion({ commentId: "nope" }))).toBe("BAD_REQUEST");
    // the still-valid one applies; applying it again is refused
    const applied = await w.as.owner.pulls.applySuggestion({ commentId: good.id });
    const after = refsOf(w.gitDir);
    expect(await messageOf(w.as.owner.pulls.applySuggestion({ commentId: good.id }))).toMatch(/already applied in [0-9a-f]{40}/);
    expect(refsOf(w.gitDir)).toBe(after);
    // closed, then merged
    const other = await suggest(w.db, { id: pr.id, headSha: applied.commitSha }, w.reader.id, {
      path: "src/app.ts",
      line: 2,
      suggestion: "dos",
    });
    await w.db.pullRequest.update({ where: { id: pr.id }, data: { state: "closed" } });
    expect(await messageOf(w.as.owner.pulls.applySuggestion({ commentId: other.id }))).toMatch(/pull request is closed/);
    await w.db.pullRequest.update({ where: { id: pr.id }, data: { state: "merged" } });
    expect(await messageOf(w.as.owner.pulls.applySuggestion({ commentId: other.id }))).toMatch(/pull request is merged/);
    expect(refsOf(w.gitDir)).toBe(after);
    // the branch moved outside svc's knowledge (or was deleted): CONFLICT / PRECONDITION_FAILED
    await w.db.pullRequest.update({ where: { id: pr.id }, data: { state: "open" } });
    git(w.gitDir, ["update-ref", "refs/heads/feature", w.first]);
    expect(await codeOf(w.as.owner.pulls.applySuggestion({ commentId: other.id }))).toBe("CONFLICT");
    git(w.gitDir, ["update-ref", "-d", "refs/heads/feature"]);
    expect(await messageOf(w.as.owner.pulls.applySuggestion({ commentId: other.id }))).toMatch(/was deleted/);
    expect((await w.db.pullRequestComment.findUniqueOrThrow({ where: { id: other.id } })).appliedSha).toBeNull();
  });

  it("refuses anonymous callers on a public repository (UNAUTHORIZED)", async () => {
    const w = await suggestionWorld({ isPrivate: false });
    const pr = await insertPull(w.db, w, { branch: "feature", head: w.tip("feature") });
    const c = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 1, suggestion: "x" });
    expect(await codeOf(w.as.anon.pulls.applySuggestion({ commentId: c.id }))).toBe("UNAUTHORIZED");
    expect(await codeOf(w.as.stranger.pulls.applySuggestion({ commentId: c.id }))).toBe("FORBIDDEN");
  });

  it("two concurrent applies on the same lines: one wins, the other fails cleanly", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const a = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", startLine: 2, line: 3, suggestion: "A" });
    const b = await suggest(w.db, pr, w.owner.id, { path: "src/app.ts", line: 3, suggestion: "B" });
    const results = await Promise.allSettled([
      w.as.writer.pulls.applySuggestion({ commentId: a.id }),
      w.as.owner.pulls.applySuggestion({ commentId: b.id }),
    ]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason.code).toMatch(/CONFLICT|PRECONDITION_FAILED/);
    const winner = (won[0] as PromiseFulfilledResult<{ commitSha: string }>).value.commitSha;
    expect(w.tip("feature")).toBe(winner);
    expect(git(w.gitDir, ["rev-parse", `${winner}^`]).trim()).toBe(head);
    const rows = await w.db.pullRequestComment.findMany({ where: { id: { in: [a.id, b.id] } } });
    expect(rows.filter((r) => r.appliedSha).map((r) => r.appliedSha)).toEqual([winner]);
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(winner);
    // the same suggestion applied twice at once: exactly one commit lands
    const c = await suggest(w.db, { id: pr.id, headSha: winner }, w.reader.id, { path: "docs/notes.md", line: 3, suggestion: "1st" });
    const twice = await Promise.allSettled([
      w.as.writer.pulls.applySuggestion({ commentId: c.id }),
      w.as.owner.pulls.applySuggestion({ commentId: c.id }),
    ]);
    expect(twice.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(git(w.gitDir, ["rev-list", "--count", `${winner}..refs/heads/feature`]).trim()).toBe("1");
    git(w.gitDir, ["fsck", "--strict"]);
  });
});
