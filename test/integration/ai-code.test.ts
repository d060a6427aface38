/**
 * ai.explainFileDiff and ai.suggestConflictResolution through the real router (docs/ai.md): the
 * local engine on real inputs (tree-sitter outlines, git merge-file), and a model through the
 * real OpenAI provider code against the fake OpenAI-compatible server, both with the server's
 * configuration (OPENAI_BASE_URL) and with an explicit engine. Private repositories answer
 * NOT_FOUND; oversized inputs BAD_REQUEST.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { engineFromSettings } from "@/server/ai/engine";
import { getDb } from "@/server/db";
import { explainFileDiff } from "@/server/services/ai/explain-file-diff";
import { suggestConflictResolution } from "@/server/services/ai/suggest-conflict-resolution";
import { authorizeRepo } from "@/server/services/repos/access";
import { actorOf } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf, issueWorld, messageOf, type IssueWorld } from "./issues-fixtures";

let fake: FakeOpenAI;
let w: IssueWorld;
beforeAll(async () => {
  fake = await startFakeOpenAI();
  w = await issueWorld();
});
afterAll(() => fake.close());

/** Runs `fn` with the server configured for the fake model (the environment is read per request). */
async function withServerModel<T>(fn: () => Promise<T>): Promise<T> {
  process.env.OPENAI_BASE_URL = fake.url;
  process.env.OPENAI_MODEL = "fake-chat";
  try {
    return await fn();
  } finally {
    delete process.env.OPENAI_BASE_URL;
    delete process.env.OPENAI_MODEL;
  }
}

const OLD =
  "export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n";
const NEW =
  "export function add(a: number, b: number) {\n  console.log(a, b);\n  return a + b;\n}\n\nexport function mul(a: number, b: number) {\n  return a * b;\n}\n";

describe("ai.explainFileDiff", () => {
  it("local engine: summary from the structural diff, concerns, impact, engine local", async () => {
    const out = await w.as.reader.ai.explainFileDiff({ repoId: w.repoId, path: "src/math.ts", oldContent: OLD, newContent: NEW });
    expect(out.engine).toBe("local");
    expect(out.summary).toBe("Adds function `mul`; changes function `add`; removes function `sub` in src/math.ts (+3 −2).");
    expect(out.explanation).toContain("Removed:\n- function `sub` (exported), line 5");
    expect(out.impact).toBe("medium"); // an export removed
    expect(out.concerns).toEqual([
      "Exported function `sub` is removed or no longer exported: code importing it will break",
      "Debug output added (line 2): remove it before merging, or use the project's logger",
    ]);
    expect(out.suggestions?.[0]).toMatch(/users of function `sub`/);
  });

  it("local engine on a file without a grammar: a line-based summary; a new file", async () => {
    const md = await w.as.reader.ai.explainFileDiff({
      repoId: w.repoId,
      path: "README.md",
      oldContent: "# A\n\nold\n",
      newContent: "# A\n\nnew\nmore\n",
    });
    expect(md).toMatchObject({ summary: "README.md: 2 lines added and 1 line removed.", impact: "low", engine: "local" });
    const added = await w.as.reader.ai.explainFileDiff({
      repoId: w.repoId,
      path: "lib/x.py",
      oldContent: "",
      newContent: "def run():\n    print('hi')\n",
    });
    expect(added.summary).toBe("New source file lib/x.py (2 lines): adds function `run`.");
    expect(added.concerns?.[0]).toMatch(/^Debug output added \(line 2\)/);
  });

  it("through a model (the server's configuration): the diff and outline in the prompt, engine named", async () => {
    fake.reply({
      content: JSON.stringify({ summary: "Adds mul, drops sub", explanation: "sub is gone.", impact: "high", concerns: ["sub removed"] }),
    });
    const before = fake.requests.length;
    const out = await withServerModel(() =>
      w.as.reader.ai.explainFileDiff({
        repoId: w.repoId,
        path: "src/math.ts",
        oldContent: OLD,
        newContent: NEW,
        context: { prTitle: "Math" },
      }),
    );
    expect(out).toEqual({
      summary: "Adds mul, drops sub",
      explanation: "sub is gone.",
      impact: "high",
      concerns: ["sub removed"],
      engine: "openai:fake-chat",
    });
    const sent = JSON.stringify(fake.requests.slice(before).at(-1)!.body.messages);
    expect(sent).toContain("removed: function sub (exported)");
    expect(sent).toContain("+  console.log(a, b);");
    expect(sent).toContain("Pull request: Math");
  });

  it("with an explicit engine; a secret the model misses is still reported", async () => {
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, model: "explicit" });
    const repo = await authorizeRepo(await getDb(), actorOf(w.reader), { repoId: w.repoId }, "read");
    fake.reply({ content: JSON.stringify({ summary: "s", explanation: "e", impact: "low" }) });
    const out = await explainFileDiff(
      await getDb(),
      null,
      repo,
      { path: "a.ts", oldContent: "", newContent: "const k = 'AKIAABCDEFGHIJKLMNOP';\n" },
      engine,
    );
    expect(out.engine).toBe("openai:explicit");
    expect(out.concerns?.[0]).toMatch(/cloud access key/);
  });

  it("a model failure is SERVICE_UNAVAILABLE naming the engine; refusals: private NOT_FOUND, too large BAD_REQUEST, foreign prId NOT_FOUND", async () => {
    fake.reply({ status: 500, error: "boom" });
    fake.reply({ status: 500, error: "boom" });
    expect(
      await withServerModel(() =>
        messageOf(w.as.reader.ai.explainFileDiff({ repoId: w.repoId, path: "a.ts", oldContent: "a", newContent: "b" })),
      ),
    ).toContain("openai:fake-chat");
    expect(await codeOf(w.as.stranger.ai.explainFileDiff({ repoId: w.repoId, path: "a.ts", oldContent: "a", newContent: "b" }))).toBe(
      "NOT_FOUND",
    );
    expect(await codeOf(w.as.anon.ai.suggestConflictResolution({ repoId: w.repoId, path: "a", ours: "", theirs: "", base: "" }))).toBe(
      "NOT_FOUND",
    );
    expect(
      await codeOf(
        w.as.reader.ai.explainFileDiff({ repoId: w.repoId, path: "a.ts", oldContent: "x".repeat(1024 * 1024 + 1), newContent: "b" }),
      ),
    ).toBe("BAD_REQUEST");
    expect(
      await messageOf(
        w.as.reader.ai.explainFileDiff({ repoId: w.repoId, path: "a.ts", oldContent: "é".repeat(600 * 1024), newContent: "b" }),
      ),
    ).toMatch(/at most 1048576 bytes/);
    expect(
      await messageOf(
        w.as.reader.ai.explainFileDiff({
          repoId: w.repoId,
          prId: "00000000-0000-4000-8000-000000000000",
          path: "a.ts",
          oldContent: "a",
          newContent: "b",
        }),
      ),
    ).toBe("pull request not found");
  });
});

describe("ai.suggestConflictResolution", () => {
  const base = "import a\nimport b\n\nconst colour = 'red';\n";
  const ours = "import a\nimport b\nimport c\n\nconst colour = 'green';\n";
  const theirs = "import a\nimport b\nimport d\n\nconst colour = 'blue';\n";

  it("local engine: imports united, the colour conflict kept with markers, confidence low, alternatives", async () => {
    const out = await w.as.reader.ai.suggestConflictResolution({
      repoId: w.repoId,
      path: "a.ts",
      base,
      ours,
      theirs,
      context: { ourBranch: "main", theirBranch: "feature" },
    });
    expect(out.engine).toBe("local");
    expect(out.confidence).toBe("low");
    expect(out.resolved).toBe(
      "import a\nimport b\nimport c\nimport d\n\n<<<<<<< main\nconst colour = 'green';\n||||||| base\nconst colour = 'red';\n=======\nconst colour = 'blue';\n>>>>>>> feature\n",
    );
    expect(out.alternatives?.map((a) => a.description)).toEqual([
      expect.stringMatching(/^Keep main/),
      expect.stringMatching(/^Keep feature/),
      expect.stringMatching(/^Keep both/),
    ]);
    expect(out.explanation).toMatch(/2 conflicts/);
  });

  it("resolvable by the rules: the model is not asked, engine local, confidence medium", async () => {
    const before = fake.requests.length;
    const out = await withServerModel(() =>
      w.as.reader.ai.suggestConflictResolution({
        repoId: w.repoId,
        path: "a.py",
        base: "import a\n",
        ours: "import a\nimport b\n",
        theirs: "import a\nimport c\n",
      }),
    );
    expect(out).toMatchObject({ resolved: "import a\nimport b\nimport c\n", confidence: "medium", engine: "local" });
    expect(fake.requests.length).toBe(before);
  });

  it("unresolved conflicts go to the model; an unusable answer falls back to the local engine", async () => {
    fake.reply({
      content: JSON.stringify({
        resolved: "import a\nimport b\nimport c\nimport d\n\nconst colour = 'teal';\n",
        explanation: "Mixed both colours.",
        confidence: "high",
      }),
    });
    const out = await withServerModel(() =>
      w.as.reader.ai.suggestConflictResolution({ repoId: w.repoId, path: "a.ts", base, ours, theirs }),
    );
    expect(out).toMatchObject({
      resolved: "import a\nimport b\nimport c\nimport d\n\nconst colour = 'teal';\n",
      confidence: "medium",
      engine: "openai:fake-chat",
    });
    expect(out.alternatives).toHaveLength(3);
    const repo = await authorizeRepo(await getDb(), actorOf(w.reader), { repoId: w.repoId }, "read");
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, model: "m" });
    const db = await getDb();
    const ask = () => suggestConflictResolution(db, null, repo, { path: "a.ts", base, ours, theirs }, engine);
    const local = (await suggestConflictResolution(db, null, repo, { path: "a.ts", base, ours, theirs })).resolved;
    // still holding markers, empty, twice not JSON: the local engine's suggestion, saying why
    fake.reply({
      content: JSON.stringify({ resolved: "<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n", explanation: "?", confidence: "high" }),
    });
    const marked = await ask();
    expect(marked).toMatchObject({ resolved: local, engine: "local", fallback: { engine: "openai:m", reason: "markers" } });
    expect(marked.warnings).toContain("openai:m answered with conflict markers still in the file: this is the local engine's suggestion");
    fake.reply({ content: JSON.stringify({ resolved: " \n", explanation: "?", confidence: "high" }) });
    expect(await ask()).toMatchObject({ resolved: local, engine: "local", fallback: { engine: "openai:m", reason: "empty" } });
    fake.reply({ content: "Sure! Here is the file: import a" });
    fake.reply({ content: "not json either" });
    expect(await ask()).toMatchObject({ resolved: local, engine: "local", fallback: { engine: "openai:m", reason: "malformed" } });
  });
});
