/**
 * Proposed changes of the coding agent through the real router on real repositories (docs/agent.md
 * "Proposed changes and approval"): propose create / modify / delete by hand → pending → approve →
 * the commit on `agent/<id>` has exactly the content and the default branch is untouched; a file
 * changed meanwhile → success false, still pending; approve-all with mixed outcomes in one commit;
 * path rules; write permission and repo:write for approving; rejecting keeps the reason.
 */
import { describe, expect, it } from "vitest";
import { readRef } from "@/server/git/pull-refs";
import { actorOf, callerFor } from "../helpers";
import { codeOf, messageOf } from "./issues-fixtures";
import { git } from "./merge-fixtures";
import { agentWorld, FILES } from "./agent-fixtures";

const CO_AUTHOR = "Co-authored-by: svc agent <agent@users.noreply.svc>";

describe("agent: proposing and approving changes", () => {
  it("create, modify and delete each commit exactly the content on agent/<id>, as the approver, and leave main alone", async () => {
    const w = await agentWorld();
    const main = w.tip("main");
    const sessionId = w.session.id;
    expect(w.session.branch).toMatch(/^agent\/[0-9a-f]{8}$/);
    expect(w.session.branch).toBe(`agent/${sessionId.replace(/-/g, "").slice(0, 8)}`);

    const created = await w.as.writer.agent.proposeChange({
      sessionId,
      type: "create",
      path: "./src//util.ts",
      content: "export const three = 3;\n",
    });
    expect(created).toMatchObject({
      type: "create",
      path: "src/util.ts",
      status: "pending",
      baseBlobSha: null,
      content: "export const three = 3;\n",
    });
    expect(created.diff).toBe(
      "diff --git a/src/util.ts b/src/util.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/util.ts\n@@ -0,0 +1 @@\n+export const three = 3;\n",
    );
    const modified = await w.as.writer.agent.proposeChange({
      sessionId,
      type: "modify",
      path: "src/app.ts",
      content: "export const one = 1;\nexport const two = 22;\n",
    });
    expect(modified.baseBlobSha).toBe(git(w.gitDir, ["rev-parse", `${main}:src/app.ts`]).trim());
    expect(modified.diff).toContain(
      "--- a/src/app.ts\n+++ b/src/app.ts\n@@ -1,2 +1,2 @@\n export const one = 1;\n-export const two = 2;\n+export const two = 22;\n",
    );
    const deleted = await w.as.writer.agent.proposeChange({ sessionId, type: "delete", path: "docs/old.md" });
    expect(deleted.diff).toContain("deleted file mode 100644\n--- a/docs/old.md\n+++ /dev/null\n@@ -1 +0,0 @@\n-obsolete\n");
    // nothing touched the repository yet
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBeNull();
    expect((await w.as.writer.agent.getPendingChanges({ sessionId })).map((c) => [c.path, c.status])).toEqual([
      ["src/util.ts", "pending"],
      ["src/app.ts", "pending"],
      ["docs/old.md", "pending"],
    ]);

    // the first approval cuts the branch from main
    const first = await w.as.writer.agent.approveChange({ changeId: created.id });
    expect(first).toMatchObject({
      success: true,
      path: "src/util.ts",
      branch: w.session.branch,
      commitSha: expect.stringMatching(/^[0-9a-f]{40}$/),
    });
    expect(w.tip(w.session.branch)).toBe(first.commitSha);
    expect(git(w.gitDir, ["rev-parse", `${first.commitSha}^`]).trim()).toBe(main);
    expect(w.show(`${first.commitSha}:src/util.ts`)).toBe("export const three = 3;\n");
    const writer = await w.db.user.findUniqueOrThrow({ where: { id: w.writer.id } });
    const who = `${writer.name ?? writer.username} <${writer.email ?? `${writer.username}@users.noreply.svc`}>`;
    expect(git(w.gitDir, ["log", "-1", "--format=%an <%ae>|%cn <%ce>", first.commitSha!]).trim()).toBe(`${who}|${who}`);
    expect(git(w.gitDir, ["log", "-1", "--format=%B", first.commitSha!]).trim()).toBe(
      `Create src/util.ts\n\nApproved from agent session "Tidy up" (${sessionId}).\n\n${CO_AUTHOR}`,
    );

    const second = await w.as.writer.agent.approveChange({ changeId: modified.id });
    const third = await w.as.writer.agent.approveChange({ changeId: deleted.id });
    expect([second.success, third.success]).toEqual([true, true]);
    expect(git(w.gitDir, ["rev-parse", `${third.commitSha}^`]).trim()).toBe(second.commitSha);
    expect(git(w.gitDir, ["rev-parse", `${second.commitSha}^`]).trim()).toBe(first.commitSha);
    expect(w.show(`${third.commitSha}:src/app.ts`)).toBe("export const one = 1;\nexport const two = 22;\n");
    expect(git(w.gitDir, ["ls-tree", "-r", "--name-only", third.commitSha!]).trim().split("\n")).toEqual([
      "README.md",
      "src/app.ts",
      "src/util.ts",
    ]);
    expect(git(w.gitDir, ["log", "-1", "--format=%s", third.commitSha!]).trim()).toBe("Delete docs/old.md");
    expect(w.tip("main")).toBe(main);
    git(w.gitDir, ["fsck", "--strict"]);

    const changes = await w.as.writer.agent.getPendingChanges({ sessionId });
    expect(changes.map((c) => [c.status, c.commitSha])).toEqual([
      ["approved", first.commitSha],
      ["approved", second.commitSha],
      ["approved", third.commitSha],
    ]);
    expect(await codeOf(w.as.writer.agent.approveChange({ changeId: created.id }))).toBe("PRECONDITION_FAILED");
    expect(await codeOf(w.as.writer.agent.rejectChange({ changeId: created.id }))).toBe("PRECONDITION_FAILED");
  });

  it("a file changed since the proposal is success: false and stays pending; the branch does not move", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const change = await w.as.writer.agent.proposeChange({ sessionId, type: "modify", path: "README.md", content: "# Project\n\nHi.\n" });
    const gone = await w.as.writer.agent.proposeChange({ sessionId, type: "delete", path: "docs/old.md" });
    const clash = await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "NOTES.md", content: "mine\n" });
    w.push({ "README.md": "# Project\n\nSomeone else.\n", "docs/old.md": null, "NOTES.md": "theirs\n" });

    const r = await w.as.writer.agent.approveChange({ changeId: change.id });
    expect(r).toEqual({
      success: false,
      path: "README.md",
      message: expect.stringContaining(`"README.md" changed on main since the change was proposed`),
    });
    expect((await w.as.writer.agent.approveChange({ changeId: gone.id })).message).toContain(
      `"docs/old.md" was deleted from main since the change was proposed`,
    );
    expect((await w.as.writer.agent.approveChange({ changeId: clash.id })).message).toContain(
      `"NOTES.md" was created on main since the change was proposed`,
    );
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBeNull();
    const rows = await w.as.writer.agent.getPendingChanges({ sessionId });
    expect(rows.map((c) => c.status)).toEqual(["pending", "pending", "pending"]);
    expect(rows[0].reason).toBe(r.message);

    // once the branch exists, proposals and approvals read it, not main
    const fresh = await w.as.writer.agent.proposeChange({
      sessionId,
      type: "modify",
      path: "README.md",
      content: "# Project\n\nMerged.\n",
    });
    const ok = await w.as.writer.agent.approveChange({ changeId: fresh.id });
    expect(ok.success).toBe(true);
    w.push({ "README.md": "# Project\n\nPushed to the agent branch.\n" }, w.session.branch);
    const stale = await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "x.txt", content: "x\n" });
    const onBranch = await w.as.writer.agent.proposeChange({ sessionId, type: "modify", path: "README.md", content: "again\n" });
    expect(onBranch.baseBlobSha).toBe(git(w.gitDir, ["rev-parse", `${w.session.branch}:README.md`]).trim());
    expect((await w.as.writer.agent.approveChange({ changeId: stale.id })).success).toBe(true);
    expect(w.show(`${w.session.branch}:README.md`)).toBe("# Project\n\nPushed to the agent branch.\n");
  });

  it("approve-all: one commit for every change that applies, in order; the others stay pending with their reasons", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const p = (type: "create" | "modify" | "delete", path: string, content?: string) =>
      w.as.writer.agent.proposeChange({ sessionId, type, path, content });
    const a = await p("create", "a.txt", "a\n");
    const stale = await p("modify", "README.md", "mine\n");
    const b = await p("modify", "src/app.ts", "b\n");
    const twice = await p("modify", "src/app.ts", "again\n");
    const c = await p("delete", "docs/old.md");
    const rejected = await p("create", "no.txt", "no\n");
    await w.as.writer.agent.rejectChange({ changeId: rejected.id, reason: "not needed" });
    w.push({ "README.md": "theirs\n" });

    const out = await w.as.writer.agent.approveAllChanges({ sessionId });
    expect(out.approved).toBe(3);
    expect(out.failed).toBe(2);
    expect(out.results.map((r) => [r.changeId, r.success])).toEqual([
      [a.id, true],
      [stale.id, false],
      [b.id, true],
      [twice.id, false],
      [c.id, true],
    ]);
    expect(out.results[3].message).toContain(`clashes with "src/app.ts", changed earlier in this batch`);
    const sha = out.commitSha!;
    expect(w.tip(w.session.branch)).toBe(sha);
    expect(git(w.gitDir, ["rev-parse", `${sha}^`]).trim()).toBe(w.tip("main"));
    expect(git(w.gitDir, ["log", "-1", "--format=%B", sha]).trim()).toBe(
      `Apply 3 changes from agent session\n\n* create a.txt\n* update src/app.ts\n* delete docs/old.md\n\nApproved from agent session "Tidy up" (${sessionId}).\n\n${CO_AUTHOR}`,
    );
    expect(w.show(`${sha}:a.txt`)).toBe("a\n");
    expect(w.show(`${sha}:src/app.ts`)).toBe("b\n");
    expect(w.show(`${sha}:README.md`)).toBe("theirs\n");
    const rows = await w.as.writer.agent.getPendingChanges({ sessionId });
    expect(rows.map((r) => r.status)).toEqual(["approved", "pending", "approved", "pending", "approved", "rejected"]);
    expect(rows[5].reason).toBe("not needed");
    // nothing left that applies: nothing committed, the branch stays
    const again = await w.as.writer.agent.approveAllChanges({ sessionId });
    expect([again.approved, again.failed, again.commitSha]).toEqual([0, 2, undefined]);
    expect(w.tip(w.session.branch)).toBe(sha);
  });

  it("refuses paths that escape the repository, touch .git, are absolute or are not valid git paths", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const bad = [
      "../outside.txt",
      "src/../../x",
      "/etc/passwd",
      "C:/x.txt",
      ".git/config",
      "src/.GIT/hooks/pre-commit",
      ".git./x",
      "git~1/config",
      "a\\b.txt",
      "",
      ".",
      "src/",
      `${"x".repeat(256)}.txt`,
      "a\u0001b",
    ];
    for (const path of bad) {
      expect({ path, code: await codeOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path, content: "x" })) }).toEqual({
        path,
        code: "BAD_REQUEST",
      });
    }
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "../x", content: "x" }))).toContain(
      "escapes the repository",
    );
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: ".git/config", content: "x" }))).toContain(
      ".git",
    );
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "/etc/passwd", content: "x" }))).toContain(
      "absolute",
    );
    // file and folder rules against the tree
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "README.md/x", content: "x" }))).toContain(
      `"README.md" is a file`,
    );
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "README.md", content: "x" }))).toContain(
      "already exists",
    );
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "modify", path: "src", content: "x" }))).toContain(
      "is a folder",
    );
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "delete", path: "nope.txt" }))).toContain("does not exist");
    expect(await codeOf(w.as.writer.agent.proposeChange({ sessionId, type: "delete", path: "README.md", content: "x" }))).toBe(
      "BAD_REQUEST",
    );
    expect(await codeOf(w.as.writer.agent.proposeChange({ sessionId, type: "modify", path: "README.md" }))).toBe("BAD_REQUEST");
    // a normalised path inside the repository is fine
    expect((await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "src/x/../y.ts", content: "y\n" })).path).toBe(
      "src/y.ts",
    );
    expect(await w.db.proposedChange.count({ where: { sessionId } })).toBe(1);
    expect(Object.keys(FILES)).toContain("README.md");
  });

  it("refuses spellings of .git that macOS or Windows read as .git, when proposed and when approved", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const hfs = ".g\u200cit/hooks/pre-commit";
    for (const path of [hfs, "\ufeff.git/config", ".git::$INDEX_ALLOCATION/x", "git~1. /config"]) {
      expect({ path, code: await codeOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path, content: "x" })) }).toEqual({
        path,
        code: "BAD_REQUEST",
      });
    }
    expect(await messageOf(w.as.writer.agent.proposeChange({ sessionId, type: "create", path: hfs, content: "x" }))).toContain(".git");
    // a change stored before the rule (or written to the table directly) is refused at approval and nothing is committed
    const row = await w.db.proposedChange.create({
      data: { sessionId, seq: 0, type: "create", path: hfs, content: "#!/bin/sh\nexit 0\n", diff: "" },
    });
    const r = await w.as.writer.agent.approveChange({ changeId: row.id });
    expect(r.success).toBe(false);
    expect(r.message).toContain(".git");
    expect(r.commitSha).toBeUndefined();
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBeNull();
    expect((await w.db.proposedChange.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("pending");
  });

  it("approving needs write permission and a repo:write token; others cannot see the change", async () => {
    const w = await agentWorld();
    const change = await w.as.writer.agent.proposeChange({ sessionId: w.session.id, type: "create", path: "t.txt", content: "t\n" });
    const readToken = await callerFor(actorOf(w.writer, ["repo:read"]));
    expect(await messageOf(readToken.agent.approveChange({ changeId: change.id }))).toContain("repo:write");
    expect(await codeOf(readToken.agent.approveAllChanges({ sessionId: w.session.id }))).toBe("FORBIDDEN");
    // the token still reads its own session
    expect((await readToken.agent.getPendingChanges({ sessionId: w.session.id })).length).toBe(1);
    // a read collaborator's own session: write permission is missing
    const mine = await w.as.reader.agent.createSession({ repoId: w.repoId, mode: "pm" });
    expect(mine.title).toBe("New pm session");
    const proposal = await w.as.reader.agent.proposeChange({ sessionId: mine.id, type: "create", path: "r.md", content: "r\n" });
    expect(await messageOf(w.as.reader.agent.approveChange({ changeId: proposal.id }))).toContain("you need write permission");
    // the owner of the repository is not the owner of the session
    for (const caller of [w.as.owner, w.as.reader, w.as.stranger]) {
      expect(await codeOf(caller.agent.approveChange({ changeId: change.id }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.rejectChange({ changeId: change.id }))).toBe("NOT_FOUND");
    }
    expect(await codeOf(w.as.anon.agent.approveChange({ changeId: change.id }))).toBe("UNAUTHORIZED");
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBeNull();
    expect((await w.as.writer.agent.approveChange({ changeId: change.id })).success).toBe(true);
  });
});
