/**
 * ai.chat (docs/ai.md "Chat (`ai.chat`) and the Ask panel"): retrieval over the semantic index of a
 * real repository pushed over git smart HTTP. Without a model the answer is the retrieved code,
 * labelled as retrieval; with one (the real OpenAI provider code against the fake server) the
 * prompt carries the retrieved code and the history, and the answer is the model's. References name
 * the files and lines either way. Private repositories answer NOT_FOUND to strangers; anonymous
 * callers are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { engineFromSettings } from "@/server/ai/engine";
import { authorizeRepo } from "@/server/services/repos/access";
import { chatAboutCode } from "@/server/services/ai/chat";
import { actorOf } from "../helpers";
import { startFakeOpenAI, type FakeOpenAI } from "../fixtures/fake-openai";
import { codeOf, team, type Team } from "./pulls-fixtures";

const MONEY = `/** Formats an amount of money with its currency symbol and two decimals. */
export function formatCurrency(amount: number, currency = "EUR"): string {
  const symbol = currency === "EUR" ? "€" : "$";
  return symbol + amount.toFixed(2);
}

/** Adds the prices of the invoice lines. */
export function invoiceTotal(lines: { price: number; quantity: number }[]): number {
  return lines.reduce((sum, l) => sum + l.price * l.quantity, 0);
}
`;

let t: Team;
let fake: FakeOpenAI;

beforeAll(async () => {
  t = await team("ch");
  fake = await startFakeOpenAI();
  await t.wt.commit("src/money.ts", MONEY, "money");
  await t.wt.commit("README.md", "# shop\n\nAn invoicing toy.\n", "readme");
  await t.wt.push("main");
});

afterAll(async () => {
  await fake.close();
  await t.server.close();
});

describe("ai.chat", () => {
  it("without a model answers with the retrieved code, labelled as retrieval, and references its lines", async () => {
    const out = await t.reader.as.ai.chat({ repoId: t.repo.id, message: "How is a currency amount formatted?" });
    expect(out.engine).toBe("local");
    expect(out.response).toContain("Retrieval only");
    expect(out.response).toContain("`src/money.ts` lines");
    expect(out.response).toContain("formatCurrency");
    expect(out.references[0]).toMatchObject({ path: "src/money.ts", lines: { start: 1 } });
    expect(out.references[0]!.relevance).toBeGreaterThan(0);
    expect(out.references[0]!.relevance).toBeLessThanOrEqual(1);
  });

  it("limits retrieval to context.files, and says so when nothing matches", async () => {
    const out = await t.reader.as.ai.chat({ repoId: t.repo.id, message: "currency formatting", context: { files: ["README.md"] } });
    expect(out.references.every((r) => r.path === "README.md")).toBe(true);
    const none = await t.reader.as.ai.chat({ repoId: t.repo.id, message: "zzqxv wobblefrotz" });
    expect(none.references).toEqual([]);
    expect(none.response).toContain("Nothing in the index matches");
  });

  it("with a model puts the retrieved code and the history in the prompt and returns its answer", async () => {
    const db = await getDb();
    const repo = await authorizeRepo(db, actorOf(t.reader.user), { repoId: t.repo.id }, "read");
    const engine = engineFromSettings({ provider: "openai", apiKey: "t", baseUrl: fake.url, model: "fake-chat" });
    fake.reply({ content: "It uses `formatCurrency` in `src/money.ts:2-5`." });
    const before = fake.requests.length;
    const out = await chatAboutCode(
      db,
      null,
      repo,
      {
        message: "How is a currency amount formatted?",
        history: [
          { role: "user", content: "Hello" },
          { role: "assistant", content: "Hi, ask me about the code." },
        ],
      },
      { engine },
    );
    expect(out).toMatchObject({ response: "It uses `formatCurrency` in `src/money.ts:2-5`.", engine: "openai:fake-chat" });
    expect(out.references[0]!.path).toBe("src/money.ts");
    const body = fake.requests[before]!.body;
    const contents = body.messages.map((m: { content: unknown }) => JSON.stringify(m.content)).join("\n");
    expect(contents).toContain("Hello");
    expect(contents).toContain("Hi, ask me about the code.");
    expect(contents).toContain("export function formatCurrency");
    fake.reply({ status: 500, error: "upstream down" });
    fake.reply({ status: 500, error: "upstream down" });
    const err = await chatAboutCode(db, null, repo, { message: "currency" }, { engine }).catch((e) => e);
    expect(err.code).toBe("SERVICE_UNAVAILABLE");
  });

  it("refuses strangers (NOT_FOUND) and bad input (BAD_REQUEST)", async () => {
    expect(await codeOf(t.stranger.as.ai.chat({ repoId: t.repo.id, message: "money" }))).toBe("NOT_FOUND");
    expect(await codeOf(t.reader.as.ai.chat({ repoId: t.repo.id, message: "   " }))).toBe("BAD_REQUEST");
    expect(await codeOf(t.reader.as.ai.chat({ repoId: t.repo.id, message: "x".repeat(4001) }))).toBe("BAD_REQUEST");
  });
});
