/**
 * The lexical engine's code vocabulary (server/services/search/vocabulary.ts; docs/ai.md "Query
 * vocabulary"), on the real engine of either database: a person's word finds code named with the
 * code's word ("largest" → maxBy), and a chunk holding the person's own word still ranks above
 * one holding only the alternative.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import { refreshSearchIndex } from "@/server/services/search/index-repo";
import { lexicalSearch } from "@/server/services/search/lexical";
import { queryWords } from "@/server/services/search/tokens";
import { team, type Team } from "./pulls-fixtures";

const SOURCE = `/** The item whose key is the greatest. */
export function maxBy<T>(items: T[], key: (item: T) => number): T | undefined {
  return items.reduce<T | undefined>((best, item) => (best === undefined || key(item) > key(best) ? item : best), undefined);
}

/** The employee with the highest salary. */
export function highestPaid(staff: Array<{ name: string; salary: number }>) {
  return maxBy(staff, (s) => s.salary);
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function intersects(a: number[], b: number[]): boolean {
  return a.some((x) => b.includes(x));
}
`;

let t: Team;
let indexId: string;

beforeAll(async () => {
  t = await team("sv");
  await t.wt.commit("src/pick.ts", SOURCE, "pick");
  await t.wt.push("main");
  indexId = (await refreshSearchIndex(await getDb(), t.repo.id, "main")).indexId;
});

afterAll(async () => {
  await t.server.close();
});

describe("lexical engine, code vocabulary", () => {
  it("finds code named with the code's word for a person's word", async () => {
    const db = await getDb();
    const largest = await lexicalSearch(db, indexId, queryWords("the largest item"), 10);
    expect(largest[0]?.name).toBe("maxBy");
    const overlap = await lexicalSearch(db, indexId, queryWords("do two lists overlap"), 10);
    expect(overlap[0]?.name).toBe("intersects");
    expect(await lexicalSearch(db, indexId, queryWords("quokka"), 10)).toEqual([]);
  });

  it("ranks the person's own word above an alternative", async () => {
    const db = await getDb();
    const hits = await lexicalSearch(db, indexId, queryWords("highest"), 10);
    expect(hits.map((h) => h.name)).toEqual(expect.arrayContaining(["highestPaid", "maxBy"]));
    expect(hits[0]?.name).toBe("highestPaid");
  });
});
