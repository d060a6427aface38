/**
 * ai.generatePRDescription and ai.summarizeForSquash (docs/ai.md) through the real router on real
 * git repositories (branches with commits), with the local engine; and the model path through
 * the real OpenAI provider code against the fake OpenAI-compatible server (the service called
 * with an explicit engine): the prompt holds the commit subjects, the answer says its engine, a
 * malformed answer is retried once, a provider error is a clear SERVICE_UNAVAILABLE.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { getDb } from "@/server/db";
import { engineFromSettings } from "@/server/ai/engine";
import { gitEnv } from "@/server/git/exec";
import { repoGitDir } from "@/server/git/paths";
import { authorizeRepo } from "@/server/services/repos/access";
import { generatePRDescription } from "@/server/services/ai/generate-pr-description";
import { summarizeForSquash } from "@/server/services/ai/summarize-for-squash";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { workRepo, type WorkRepo } from "../diff-fixtures";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";

let owner: Profile;
let stranger: Profile;
let w: WorkRepo;
let repoId: string;
let publicRepoId: string;
let fake: FakeOpenAI;
const ownerIdentity = () => `${owner.username} <${owner.username}@users.noreply.svc>`;

/** Commits `files` as `author` ("Name <email>"). */
function commitAs(files: Record<string, string>, message: string, author?: string): string {
  for (const [f, c] of Object.entries(files)) w.write(f, c);
  w.git("add", "-A");
  w.git("commit", "-q", "--allow-empty", "-m", message, ...(author ? [`--author=${author}`] : []));
  return w.git("rev-parse", "HEAD").trim();
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  owner = await makeUser("aiwowner");
  stranger = await makeUser("aiwstranger");
  const caller = await callerFor(actorOf(owner));
  repoId = (await caller.repos.create({ name: "writing", isPrivate: true })).id;
  publicRepoId = (await caller.repos.create({ name: "writing-open", isPrivate: false })).id;
  w = workRepo();
  commitAs({ "README.md": "# app\n", "server/api/list.ts": "export const list = 1;\n" }, "Initial commit");
  w.git("checkout", "-q", "-b", "feature/paged-lists");
  commitAs(
    { "server/api/list.ts": "export const list = 2;\nexport const cursor = true;\n" },
    "feat(api): add cursor pagination to list endpoints",
    ownerIdentity(),
  );
  commitAs(
    { "server/api/page.ts": "export const page = 1;\n" },
    "fix(api): keep the order stable across pages\n\nBREAKING CHANGE: page tokens from v1 are refused",
    "Grace Hopper <grace@example.com>",
  );
  commitAs({ "docs/api.md": "# cursors\n" }, "Describe the cursor parameter", "Linus <linus@example.com>");
  commitAs({ "test/list.test.ts": "it('pages')\n" }, "More cases", "Grace Hopper <GRACE@example.com>");
  w.git("checkout", "-q", "-b", "plain-work", "main");
  commitAs({ "src/a.ts": "a\n" }, "Add the a module");
  commitAs({ "src/a.ts": "a2\n" }, "Fix the a module");
  w.git("checkout", "-q", "main");
  for (const name of ["writing", "writing-open"])
    execFileSync("git", ["fetch", "-q", w.dir, "+refs/heads/*:refs/heads/*"], {
      env: gitEnv({ GIT_DIR: repoGitDir(owner.username, name) }),
    });
});

afterAll(async () => {
  w?.cleanup();
  await fake?.close();
});

describe("ai.generatePRDescription (local engine)", () => {
  it("describes the real commits and diff between the branches", async () => {
    const d = await (
      await callerFor(actorOf(owner))
    ).ai.generatePRDescription({ repoId, sourceBranch: "feature/paged-lists", targetBranch: "main" });
    expect(d.engine).toBe("local");
    expect(d.title).toBe("feat(api)!: add cursor pagination to list endpoints");
    // the plain commits are categorised by the paths they touched
    expect(d.changes).toEqual([
      { category: "feature", description: "api: Add cursor pagination to list endpoints" },
      { category: "fix", description: "api: Keep the order stable across pages" },
      { category: "docs", description: "Describe the cursor parameter" },
      { category: "test", description: "More cases" },
    ]);
    expect(d.breakingChanges).toEqual(["api: page tokens from v1 are refused"]);
    expect(d.summary).toContain("4 commits, 4 files changed");
    expect(d.body).toContain("## Files");
    expect(d.body).toContain("`server/api/list.ts` (+2 −1)");
  });

  it("honours the style and what the author wrote", async () => {
    const caller = await callerFor(actorOf(owner));
    const plain = await caller.ai.generatePRDescription({ repoId, sourceBranch: "plain-work", targetBranch: "main", style: "concise" });
    expect(plain.title).toBe("Plain work");
    expect(plain.body).not.toContain("##");
    const conv = await caller.ai.generatePRDescription({ repoId, sourceBranch: "plain-work", targetBranch: "main", style: "conventional" });
    expect(conv.title).toBe("feat: add the a module");
    const kept = await caller.ai.generatePRDescription({
      repoId,
      sourceBranch: "plain-work",
      targetBranch: "main",
      existingTitle: "My words",
      existingBody: "Context first.",
    });
    expect(kept.title).toBe("My words");
    expect(kept.body.startsWith("Context first.")).toBe(true);
  });

  it("refuses unknown branches, empty ranges, strangers (NOT_FOUND for a private repository) and anonymous callers", async () => {
    const caller = await callerFor(actorOf(owner));
    await expect(caller.ai.generatePRDescription({ repoId, sourceBranch: "nope", targetBranch: "main" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.ai.generatePRDescription({ repoId, sourceBranch: "main", targetBranch: "feature/paged-lists" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringContaining("nothing to describe") });
    await expect(caller.ai.generatePRDescription({ repoId, sourceBranch: "--output=x", targetBranch: "main" })).rejects.toMatchObject({
      code: expect.stringMatching(/BAD_REQUEST|NOT_FOUND/),
    });
    await expect(
      (await callerFor(actorOf(stranger))).ai.generatePRDescription({ repoId, sourceBranch: "feature/paged-lists", targetBranch: "main" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      (await callerFor(null)).ai.generatePRDescription({ repoId: publicRepoId, sourceBranch: "feature/paged-lists", targetBranch: "main" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // a reader of a public repository may ask
    const d = await (
      await callerFor(actorOf(stranger))
    ).ai.generatePRDescription({ repoId: publicRepoId, sourceBranch: "plain-work", targetBranch: "main" });
    expect(d.engine).toBe("local");
  });
});

describe("ai.summarizeForSquash (local engine)", () => {
  it("writes the squash message of a pull request's real commits; its author is not a co-author", async () => {
    const caller = await callerFor(actorOf(owner));
    const gitDir = repoGitDir(owner.username, "writing");
    const head = execFileSync("git", ["rev-parse", "feature/paged-lists"], { env: gitEnv({ GIT_DIR: gitDir }) })
      .toString()
      .trim();
    const base = execFileSync("git", ["rev-parse", "main"], { env: gitEnv({ GIT_DIR: gitDir }) })
      .toString()
      .trim();
    const pr = await caller.pulls.create({
      repoId,
      title: "Cursor pagination",
      sourceBranch: "feature/paged-lists",
      targetBranch: "main",
      headSha: head,
      baseSha: base,
    });
    const { commits } = await caller.pulls.getCommits({ prId: pr.id });
    const input = commits.map((c) => ({ sha: c.sha, message: c.message, author: `${c.author} <${c.authorEmail}>` }));
    const s = await caller.ai.summarizeForSquash({ repoId, commits: input, prId: pr.id, style: "conventional" });
    expect(s.engine).toBe("local");
    expect(s.title).toBe(`feat(api)!: cursor pagination (#${pr.number})`);
    expect(s.coAuthors).toEqual(["Grace Hopper <grace@example.com>", "Linus <linus@example.com>"]);
    expect(s.message).toBe(`${s.title}\n\n${s.body}`);
    expect(s.body).toContain(
      "* feat(api): add cursor pagination to list endpoints\n* fix(api): keep the order stable across pages\n* Describe the cursor parameter",
    );
    expect(s.body).toContain("BREAKING CHANGE: page tokens from v1 are refused");
    expect(s.body.endsWith("Co-authored-by: Grace Hopper <grace@example.com>\nCo-authored-by: Linus <linus@example.com>")).toBe(true);

    const simple = await caller.ai.summarizeForSquash({ repoId, commits: input, prTitle: "feat: Cursor pagination", style: "simple" });
    expect(simple.title).toBe("Cursor pagination");
    await expect(caller.ai.summarizeForSquash({ repoId: publicRepoId, commits: input, prId: pr.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(caller.ai.summarizeForSquash({ repoId, commits: [] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect((await callerFor(actorOf(stranger))).ai.summarizeForSquash({ repoId, commits: input })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

describe("the model path (real provider code, fake OpenAI-compatible server)", () => {
  const engine = () => engineFromSettings({ provider: "openai", apiKey: "sk-writing-secret", baseUrl: fake.url, model: "fake-chat" });
  const repo = async () => authorizeRepo(await getDb(), actorOf(owner), { repoId }, "read");
  const answer = {
    title: "Paged lists",
    body: "## Summary\n\nCursor paging.",
    summary: "Cursor paging for lists.",
    changes: [{ category: "feature", description: "Cursor pagination" }],
    breakingChanges: [],
  };

  it("sends the commits and a bounded diff, answers with the model's description and its engine", async () => {
    const before = fake.requests.length;
    fake.reply({ content: JSON.stringify(answer) });
    const d = await generatePRDescription(
      await getDb(),
      null,
      await repo(),
      { sourceBranch: "feature/paged-lists", targetBranch: "main", style: "detailed" },
      { engine: engine() },
    );
    expect(d.engine).toBe("openai:fake-chat");
    expect(d.title).toBe("Paged lists");
    expect(d.changes).toEqual([{ category: "feature", description: "Cursor pagination" }]);
    // the commits' own breaking footers are always listed
    expect(d.breakingChanges).toEqual(["api: page tokens from v1 are refused"]);
    const sent = fake.requests.slice(before);
    expect(sent).toHaveLength(1);
    const prompt = JSON.stringify(sent[0]!.body.messages);
    for (const subject of [
      "feat(api): add cursor pagination to list endpoints",
      "fix(api): keep the order stable across pages",
      "Describe the cursor parameter",
      "More cases",
    ])
      expect(prompt).toContain(subject);
    expect(prompt).toContain("--- server/api/list.ts (modified, +2 −1)");
    expect(prompt).toContain("+export const cursor = true;");
    expect(sent[0]!.body.response_format?.type).toBe("json_schema");
  });

  it("retries a malformed answer once; a second one, or a provider error, is SERVICE_UNAVAILABLE naming the engine", async () => {
    const db = await getDb();
    fake.reply({ content: "not json" });
    fake.reply({ content: JSON.stringify(answer) });
    await expect(
      generatePRDescription(db, null, await repo(), { sourceBranch: "feature/paged-lists", targetBranch: "main" }, { engine: engine() }),
    ).resolves.toMatchObject({ title: "Paged lists" });
    fake.reply({ content: "{" });
    fake.reply({ content: JSON.stringify({ title: 1 }) });
    await expect(
      generatePRDescription(db, null, await repo(), { sourceBranch: "feature/paged-lists", targetBranch: "main" }, { engine: engine() }),
    ).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("openai:fake-chat") });
    fake.reply({ status: 500, error: "model overloaded" });
    fake.reply({ status: 500, error: "model overloaded" });
    const err = await summarizeForSquash(
      db,
      null,
      await repo(),
      { commits: [{ sha: "abcdef1", message: "feat: x", author: "A <a@x.io>" }] },
      { engine: engine() },
    ).catch((e) => e);
    expect(err).toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringContaining("openai:fake-chat") });
    // the SDK retried once; the message still carries the provider's status and words
    expect(err.message).toContain("failed 500: model overloaded");
    expect(err.message).toContain("after 2 attempts");
    expect(err.message).not.toContain("sk-writing-secret");
  });

  it("squash: the model writes title and listing; svc adds the co-authors, drops the model's trailers", async () => {
    const before = fake.requests.length;
    fake.reply({
      content: JSON.stringify({
        title: "feat(api): cursor pagination",
        body: "* add cursors\n* stable order\nCo-authored-by: Someone <made@up.io>",
      }),
    });
    const commits = [
      { sha: "abcdef1", message: "feat(api): add cursors", author: ownerIdentity() },
      { sha: "abcdef2", message: "fix(api): stable order", author: "Grace Hopper <grace@example.com>" },
    ];
    const s = await summarizeForSquash(await getDb(), null, await repo(), { commits, prTitle: "Cursor pagination" }, { engine: engine() });
    expect(s.engine).toBe("openai:fake-chat");
    expect(s.title).toBe("feat(api): cursor pagination");
    expect(s.coAuthors).toEqual(["Grace Hopper <grace@example.com>"]);
    expect(s.message).toBe(
      "feat(api): cursor pagination\n\n* add cursors\n* stable order\n\nCo-authored-by: Grace Hopper <grace@example.com>",
    );
    const prompt = JSON.stringify(fake.requests.slice(before)[0]!.body.messages);
    expect(prompt).toContain("feat(api): add cursors");
    expect(prompt).toContain("Pull request title: Cursor pagination");
  });
});
