/**
 * The lexical engine ranks a bounded set first (lexical.ts: the engine's best 2 × candidates over
 * every index's chunks, then this index's rows): when other indexes' chunks fill that set, the
 * statement runs again over every match, so an index's own matches are still found
 * (docs/ai.md "Semantic search", "Candidates"). Both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { refreshSearchIndex } from "@/server/services/search/index-repo";
import { lexicalSearch } from "@/server/services/search/lexical";
import { team, type Team } from "./pulls-fixtures";

let t: Team;

beforeAll(async () => {
  t = await team("sb");
  // the target names "quokka" once, in a long body: every crowd chunk below outranks it
  const filler = Array.from({ length: 120 }, (_, i) => `  const value${i} = compute${i}(input, other${i});`).join("\n");
  await t.wt.commit(
    "src/target.ts",
    `export function wombatTarget(input: number): number {\n${filler}\n  return quokka(input);\n}\n`,
    "target",
  );
  await t.wt.push("main");
  // another branch (its own index) with 450 chunks that outrank the target for "quokka"
  await t.wt.run("checkout", "--quiet", "-b", "crowd");
  const crowd = Array.from(
    { length: 450 },
    (_, i) => `/** quokka quokka quokka */\nexport function quokkaCrowd${i}(): string {\n  return "quokka quokka";\n}\n`,
  ).join("\n");
  await t.wt.commit("src/crowd.ts", crowd, "crowd");
  await t.wt.push("crowd");
  await t.wt.run("checkout", "--quiet", "main");
});

afterAll(async () => {
  await t.server.close();
});

describe("lexical engine, bounded ranking", () => {
  it("finds an index's match even when other indexes' chunks fill the engine's best 400", async () => {
    const db = await getDb();
    const main = await refreshSearchIndex(db, t.repo.id, "main");
    const crowd = await refreshSearchIndex(db, t.repo.id, "crowd");
    expect(crowd.chunks).toBeGreaterThan(450);
    const crowdHits = await lexicalSearch(db, crowd.indexId, ["quokka"], 200);
    expect(crowdHits).toHaveLength(200);
    expect(crowdHits.every((h) => h.name?.startsWith("quokkaCrowd"))).toBe(true); // the target is not among the crowd's best 200
    const hits = await lexicalSearch(db, main.indexId, ["quokka"], 200);
    expect(hits.map((h) => h.name)).toEqual(["wombatTarget"]);
    expect(await lexicalSearch(db, main.indexId, ["quokka"], 200, ["py"])).toEqual([]);
  });
});
