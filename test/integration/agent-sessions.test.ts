/**
 * Coding-agent sessions through the real router (docs/agent.md "Sessions"): only the owner sees or
 * uses a session (others NOT_FOUND), listing (own, newest first, limit), messages oldest first,
 * deleting removes messages and changes, status and chat without a model (PRECONDITION_FAILED
 * naming the variables), and "Open pull request" from the session branch.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRef } from "@/server/git/pull-refs";
import { actorOf, callerFor } from "../helpers";
import { codeOf, messageOf } from "./issues-fixtures";
import { agentWorld } from "./agent-fixtures";

const MODEL_VARS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL", "ANTHROPIC_MODEL"];
let saved: Record<string, string | undefined> = {};
beforeEach(() => {
  saved = Object.fromEntries(MODEL_VARS.map((k) => [k, process.env[k]]));
  for (const k of MODEL_VARS) delete process.env[k];
});
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("agent sessions", () => {
  it("only the owner sees, lists, renames or deletes a session; the others get NOT_FOUND", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    expect(w.session).toMatchObject({ repoId: w.repoId, userId: w.writer.id, mode: "code", title: "Tidy up" });
    expect(await w.as.writer.agent.getSession({ sessionId })).toEqual(w.session);
    for (const caller of [w.as.owner, w.as.reader, w.as.stranger]) {
      expect(await codeOf(caller.agent.getSession({ sessionId }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.getMessages({ sessionId }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.getPendingChanges({ sessionId }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.updateSession({ sessionId, title: "mine" }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.deleteSession({ sessionId }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.proposeChange({ sessionId, type: "create", path: "x", content: "x" }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.openPullRequest({ sessionId }))).toBe("NOT_FOUND");
      expect(await codeOf(caller.agent.chat({ sessionId, message: "hi" }))).toBe("NOT_FOUND");
      expect(await caller.agent.listSessions()).toEqual([]);
    }
    expect(await w.as.reader.agent.listSessions({ repoId: w.repoId })).toEqual([]);
    expect(await codeOf(w.as.anon.agent.getSession({ sessionId }))).toBe("UNAUTHORIZED");
    expect(await codeOf(w.as.anon.agent.createSession({ repoId: w.repoId, mode: "pm" }))).toBe("NOT_FOUND"); // private repository
    expect(await codeOf(w.as.stranger.agent.createSession({ repoId: w.repoId, mode: "pm" }))).toBe("NOT_FOUND");
    expect(await codeOf(w.as.writer.agent.createSession({ repoId: w.repoId, mode: "ops" }))).toBe("BAD_REQUEST");

    const renamed = await w.as.writer.agent.updateSession({ sessionId, title: "  Better name " });
    expect(renamed.title).toBe("Better name");
    // a collaborator who loses access loses the session too
    await w.as.owner.repos.removeCollaborator({ repoId: w.repoId, username: w.writer.username });
    expect(await codeOf(w.as.writer.agent.getSession({ sessionId }))).toBe("NOT_FOUND");
    expect(await w.as.writer.agent.listSessions()).toEqual([]);
  });

  it("lists the caller's sessions newest first with limit and offset, across repositories or in one", async () => {
    const w = await agentWorld();
    const more = [];
    for (let i = 0; i < 3; i++) {
      more.push(await w.as.writer.agent.createSession({ repoId: w.repoId, mode: i % 2 ? "pm" : "code", title: `s${i}` }));
      await new Promise((r) => setTimeout(r, 5));
    }
    const other = await w.as.writer.agent.createSession({
      repoId: (await w.as.writer.repos.create({ name: `own${Date.now()}` })).id,
      mode: "pm",
    });
    expect((await w.as.writer.agent.listSessions()).map((s) => s.id)).toEqual([other.id, more[2].id, more[1].id, more[0].id, w.session.id]);
    expect((await w.as.writer.agent.listSessions({ repoId: w.repoId, limit: 2, offset: 1 })).map((s) => s.title)).toEqual(["s1", "s0"]);
    expect(new Set([w.session, ...more].map((s) => s.branch)).size).toBe(4);
    expect(await codeOf(w.as.writer.agent.listSessions({ limit: 101 }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.writer.agent.listSessions({ limit: 0 }))).toBe("BAD_REQUEST");
    expect(await codeOf(w.as.stranger.agent.listSessions({ repoId: w.repoId }))).toBe("NOT_FOUND");
  });

  it("pages messages oldest first (or from the newest end); deleting a session removes its messages and changes but keeps the branch", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    const base = Date.now();
    for (let i = 0; i < 5; i++) {
      await w.db.agentMessage.create({
        data: {
          sessionId,
          role: i % 2 ? "assistant" : "user",
          content: `m${i}`,
          status: i % 2 ? "complete" : null,
          createdAt: new Date(base + i * 1000),
        },
      });
    }
    const page = await w.as.writer.agent.getMessages({ sessionId, limit: 2, offset: 1 });
    expect(page.map((m) => [m.role, m.content, m.status])).toEqual([
      ["assistant", "m1", "complete"],
      ["user", "m2", null],
    ]);
    expect((await w.as.writer.agent.getMessages({ sessionId })).map((m) => m.content)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    // latest (beyond the spec): the newest page, still oldest first; offset skips the newest
    expect((await w.as.writer.agent.getMessages({ sessionId, limit: 2, latest: true })).map((m) => m.content)).toEqual(["m3", "m4"]);
    expect((await w.as.writer.agent.getMessages({ sessionId, limit: 2, offset: 1, latest: true })).map((m) => m.content)).toEqual([
      "m2",
      "m3",
    ]);
    expect(await codeOf(w.as.writer.agent.getMessages({ sessionId, latest: "yes" as never }))).toBe("BAD_REQUEST");

    const approved = await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "keep.txt", content: "k\n" });
    await w.as.writer.agent.approveChange({ changeId: approved.id });
    await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "pending.txt", content: "p\n" });
    const tip = w.tip(w.session.branch);
    expect(await w.as.writer.agent.deleteSession({ sessionId })).toEqual({ success: true });
    expect(await w.db.agentMessage.count({ where: { sessionId } })).toBe(0);
    expect(await w.db.proposedChange.count({ where: { sessionId } })).toBe(0);
    expect(await codeOf(w.as.writer.agent.getSession({ sessionId }))).toBe("NOT_FOUND");
    expect(await readRef(w.gitDir, `refs/heads/${w.session.branch}`)).toBe(tip);
  });

  it("without a model: status says unavailable and chat / chatStream answer PRECONDITION_FAILED naming the variables; nothing is stored", async () => {
    const w = await agentWorld();
    const status = await w.as.anon.agent.status();
    expect(status).toMatchObject({
      available: false,
      providers: [
        { name: "openai", configured: false, models: [] },
        { name: "anthropic", configured: false, models: [] },
        { name: "openai-compatible", configured: false, models: [] },
      ],
    });
    expect(status.defaultModel).toBeUndefined();
    expect(status.message).toContain("OPENAI_API_KEY");
    expect(await codeOf(w.as.stranger.agent.status({ repoId: w.repoId }))).toBe("NOT_FOUND");
    expect((await w.as.writer.agent.status({ repoId: w.repoId })).available).toBe(false);

    const chat = w.as.writer.agent.chat({ sessionId: w.session.id, message: "add a test" });
    expect(await codeOf(chat)).toBe("PRECONDITION_FAILED");
    const message = await messageOf(w.as.writer.agent.chat({ sessionId: w.session.id, message: "add a test" }));
    expect(message).toContain("OPENAI_API_KEY");
    expect(message).toContain("ANTHROPIC_API_KEY");
    const stream = async () => {
      for await (const chunk of await w.as.writer.agent.chatStream({ sessionId: w.session.id, message: "hi" })) return chunk;
    };
    expect(await messageOf(stream())).toContain("OPENAI_API_KEY");
    expect(await w.db.agentMessage.count({ where: { sessionId: w.session.id } })).toBe(0);

    // the configuration is read as it is now
    process.env.ANTHROPIC_API_KEY = "sk-test";
    process.env.ANTHROPIC_MODEL = "claude-test";
    const configured = await w.as.anon.agent.status();
    expect(configured).toMatchObject({ available: true, defaultProvider: "anthropic", defaultModel: "claude-test", source: "server" });
    expect(configured.providers[1]).toEqual({ name: "anthropic", configured: true, models: ["claude-test"] });
    expect(await w.as.anon.agent.getModes()).toEqual([
      expect.objectContaining({
        id: "pm",
        name: expect.any(String),
        description: expect.any(String),
        capabilities: expect.arrayContaining(["propose issues"]),
      }),
      expect.objectContaining({ id: "code", capabilities: expect.any(Array) }),
    ]);
  });

  it("opens a pull request from the session branch into the default branch", async () => {
    const w = await agentWorld();
    const sessionId = w.session.id;
    expect(await messageOf(w.as.writer.agent.openPullRequest({ sessionId }))).toContain("approve a change first");
    const c = await w.as.writer.agent.proposeChange({ sessionId, type: "modify", path: "README.md", content: "# Project\n\nBetter.\n" });
    const { commitSha } = await w.as.writer.agent.approveChange({ changeId: c.id });
    const pr = await w.as.writer.agent.openPullRequest({ sessionId });
    expect(pr).toMatchObject({
      title: "Tidy up",
      sourceBranch: w.session.branch,
      targetBranch: "main",
      headSha: commitSha,
      baseSha: w.tip("main"),
      state: "open",
    });
    expect(pr.body).toContain("- modify `README.md`");
    expect(await readRef(w.gitDir, `refs/pull/${pr.number}/head`)).toBe(commitSha);
    expect(await codeOf(w.as.writer.agent.openPullRequest({ sessionId }))).toBe("CONFLICT");
    // a later approval moves the pull request along (recorded as a push)
    const d = await w.as.writer.agent.proposeChange({ sessionId, type: "create", path: "more.md", content: "more\n" });
    const next = await w.as.writer.agent.approveChange({ changeId: d.id });
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(next.commitSha);
    // a read-only token may open one too, as pulls.create allows
    const other = await w.as.writer.agent.createSession({ repoId: w.repoId, mode: "code", title: "Second" });
    const e = await w.as.writer.agent.proposeChange({ sessionId: other.id, type: "create", path: "e.md", content: "e\n" });
    await w.as.writer.agent.approveChange({ changeId: e.id });
    const readOnly = await callerFor(actorOf(w.writer, ["repo:read"]));
    expect((await readOnly.agent.openPullRequest({ sessionId: other.id, title: "From a token", body: "b" })).title).toBe("From a token");
  });
});
