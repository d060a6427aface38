/**
 * The coding agent's commits move a pull request's head like a push (docs/pulls.md "Revisions"):
 * a pull request opened from the session branch `agent/<id>` gets one revision per approved
 * change (a commit through services/repos/update-branch.ts), by the approver, not forced, with
 * the merge base and patch id against its target. Real repository, the real router.
 */
import { describe, expect, it } from "vitest";
import { agentWorld } from "./agent-fixtures";

describe("revisions: agent commits", () => {
  it("each approved change on the session branch of a pull request is one revision by the approver", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const main = w.tip("main");
    const created = await w.as.writer.agent.proposeChange({
      sessionId,
      type: "create",
      path: "src/util.ts",
      content: "export const three = 3;\n",
    });
    await w.as.writer.agent.approveChange({ changeId: created.id });
    const first = w.tip(w.session.branch);
    const pr = await w.as.writer.pulls.create({
      repoId: w.repoId,
      title: "agent work",
      sourceBranch: w.session.branch,
      targetBranch: "main",
      headSha: first,
      baseSha: main,
    });
    const modified = await w.as.writer.agent.proposeChange({
      sessionId,
      type: "modify",
      path: "src/app.ts",
      content: "export const one = 1;\nexport const two = 22;\n",
    });
    await w.as.writer.agent.approveChange({ changeId: modified.id });
    const second = w.tip(w.session.branch);
    expect(second).not.toBe(first);
    const revs = await w.as.reader.pulls.revisions({ prId: pr.id });
    expect(revs.map((r) => [r.number, r.headSha, r.baseSha, r.forced, r.pushedBy?.username])).toEqual([
      [1, first, main, false, w.writer.username],
      [2, second, main, false, w.writer.username],
    ]);
    expect(revs[1].patchId).toMatch(/^[0-9a-f]{40}$/);
    expect(revs[1].patchId).not.toBe(revs[0].patchId);
  });
});
