/**
 * Push protection of the commits svc writes itself (docs/security.md "Push protection of svc's
 * own commits"; services/repos/update-branch.ts): an applied suggestion with a live svc token and
 * an agent approval with a private key block are refused with the push's message and nothing is
 * committed; a clean suggestion applies; a merge of content already on a ref (pushed, so scanned
 * then or allowed) is not refused for it.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { readRef } from "@/server/git/pull-refs";
import { makeToken } from "../helpers";
import { codeOf, messageOf } from "./issues-fixtures";
import { commitFiles, git } from "./merge-fixtures";
import { insertPull, suggest, suggestionWorld } from "./pulls-suggestions-fixtures";
import { agentWorld } from "./agent-fixtures";

/** A private key block built at run time (so this file holds no armour line). */
function keyBlock(): string {
  const body = randomBytes(240)
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return `-----BEGIN ${"OPENSSH"} PRIVATE KEY-----\n${body}\n-----END ${"OPENSSH"} PRIVATE KEY-----\n`;
}

describe("push protection of svc's own commits", () => {
  it("refuses a suggestion that adds a live svc token (branch, comment and pull request unchanged); a clean one applies", async () => {
    const w = await suggestionWorld();
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const token = await makeToken(w.reader);
    const bad = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 2, suggestion: `const t = "${token}";` });

    const refused = w.as.writer.pulls.applySuggestion({ commentId: bad.id });
    expect(await codeOf(refused)).toBe("FORBIDDEN");
    const message = await messageOf(w.as.writer.pulls.applySuggestion({ commentId: bad.id }));
    expect(message).toContain("push protection: this commit adds secrets:");
    expect(message).toMatch(/ {2}src\/app\.ts:2 {2}svc personal access token \(valid on this server\) \(commit [0-9a-f]{10}\)/);
    expect(message).toContain("git push -o allow-secret");
    expect(message).not.toContain(token);
    expect(w.tip("feature")).toBe(head);
    const comment = await w.db.pullRequestComment.findUniqueOrThrow({ where: { id: bad.id } });
    expect(comment).toMatchObject({ appliedSha: null, resolvedAt: null });
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(head);

    // a token-shaped string that is not live is not a secret; a clean suggestion applies
    const fake = `svc_${"a".repeat(8)}_${"b".repeat(32)}`;
    const good = await suggest(w.db, pr, w.reader.id, { path: "src/app.ts", line: 2, suggestion: `const t = "${fake}";` });
    const out = await w.as.writer.pulls.applySuggestion({ commentId: good.id });
    expect(w.tip("feature")).toBe(out.commitSha);
    expect(git(w.gitDir, ["show", `${out.commitSha}:src/app.ts`])).toContain(fake);
  });

  it("refuses an agent approval that adds a private key block; the change stays pending and no branch is made", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const change = await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "deploy/id_key", content: keyBlock() });
    const message = await messageOf(w.as.writer.agent.approveChange({ changeId: change.id }));
    expect(message).toContain("push protection: this commit adds secrets:");
    expect(message).toMatch(/ {2}deploy\/id_key:1 {2}private key \(commit [0-9a-f]{10}\)/);
    expect(await codeOf(w.as.writer.agent.approveAllChanges({ sessionId }))).toBe("FORBIDDEN");
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBeNull();
    expect((await w.as.writer.agent.getPendingChanges({ sessionId })).map((c) => [c.path, c.status])).toEqual([
      ["deploy/id_key", "pending"],
    ]);
  });

  it("merges a pull request whose pushed commits carry a token: content already on a ref is not scanned again", async () => {
    const w = await suggestionWorld();
    const token = await makeToken(w.reader);
    // pushed straight into the bare repository: as a push allowed with -o allow-secret
    git(w.work, ["checkout", "-q", "feature"]);
    const head = commitFiles(w.work, { "config.env": `TOKEN=${token}\n` }, "config", "Bob");
    git(w.work, ["push", "-q", w.gitDir, "feature"]);
    const pr = await insertPull(w.db, w, { branch: "feature", head });
    const merged = await w.as.owner.pulls.merge({ prId: pr.id, strategy: "squash" });
    expect(w.tip("main")).toBe(merged.mergeSha);
    expect(git(w.gitDir, ["show", `${merged.mergeSha}:config.env`])).toContain(token);
  });

  it("scans what a conflict resolution writes, not what the target branch brings", async () => {
    const w = await suggestionWorld();
    const token = await makeToken(w.reader);
    git(w.work, ["checkout", "-q", "feature"]);
    commitFiles(w.work, { "src/app.ts": "one\ntwo\nTHREE (feature)\nfour\nfive\nsix\n" }, "feature side");
    git(w.work, ["checkout", "-q", "main"]);
    // on main already (pushed: scanned then, or allowed)
    commitFiles(w.work, { "src/app.ts": "one\ntwo\n3 (main)\nfour\nfive\nsix\n", "config.env": `TOKEN=${token}\n` }, "main side");
    git(w.work, ["push", "-q", "-f", w.gitDir, "main", "feature"]);
    const head = w.tip("feature");
    const pr = await insertPull(w.db, w, { branch: "feature", head });

    const leaked = [{ path: "src/app.ts", content: `one\ntwo\n3 ${token}\nfour\nfive\nsix\n` }];
    const message = await messageOf(w.as.writer.pulls.resolveConflicts({ prId: pr.id, files: leaked, expectedHeadSha: head }));
    expect(message).toContain("push protection: this commit adds secrets:");
    expect(message).toMatch(/ {2}src\/app\.ts:3 {2}svc personal access token/);
    expect(message).not.toContain("config.env");
    expect(w.tip("feature")).toBe(head);

    const clean = [{ path: "src/app.ts", content: "one\ntwo\n3 (main and feature)\nfour\nfive\nsix\n" }];
    const out = await w.as.writer.pulls.resolveConflicts({ prId: pr.id, files: clean, expectedHeadSha: head });
    expect(out).toMatchObject({ success: true });
    expect(w.tip("feature")).toBe(out.commitSha);
  });
});
