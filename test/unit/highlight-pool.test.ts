/**
 * The highlighting worker pool's bounds (server/highlight; docs/security.md "Hardening II, item
 * 1"): the per-request budget shared by a request's tasks, the in-flight cap answering "busy" at
 * once, the cache of complete results only, and the cache's size bound.
 */
import { describe, expect, it } from "vitest";
import { highlightCode, HighlightBudget, MAX_IN_FLIGHT } from "@/server/highlight";
import { SizedLru } from "@/server/highlight/cache";
import { highlightTasksInFlight, warmHighlighter } from "@/server/highlight/pool";

const hostile = (n: number, salt: string) => Array.from({ length: n }, () => "*_".repeat(240)).join("\n") + `\n${salt}\n`;

describe("SizedLru", () => {
  it("drops the least recently used entries once the sizes pass the bound, and never keeps an oversized value", () => {
    const lru = new SizedLru<string>(10);
    lru.set("a", "A", 4);
    lru.set("b", "B", 4);
    expect(lru.get("a")).toBe("A"); // a is now the most recent
    lru.set("c", "C", 4); // 12 > 10: b goes
    expect(lru.get("b")).toBeUndefined();
    expect(lru.get("a")).toBe("A");
    expect(lru.get("c")).toBe("C");
    lru.set("big", "X", 11);
    expect(lru.get("big")).toBeUndefined();
    expect(lru.stats).toEqual({ entries: 2, size: 8 });
  });
});

describe("highlighting on the pool", () => {
  it("caches complete results (the same answer, no task) and not partial ones", async () => {
    await warmHighlighter();
    const code = `export const cached = ${Date.now()};\n`;
    const first = await highlightCode(code, "typescript", { lineNumbers: true });
    expect(first.stopped).toBeNull();
    expect(first.highlightedLines).toBe(1);
    expect(await highlightCode(code, "typescript", { lineNumbers: true })).toBe(first);

    const text = hostile(30, "partial");
    const partial = await highlightCode(text, "markdown");
    expect(partial.stopped).toBe("budget");
    expect(await highlightCode(text, "markdown")).not.toBe(partial);
  });

  it("shares one budget between a request's tasks: once spent, the next ones are plain without a task", async () => {
    const budget = new HighlightBudget();
    const a = await highlightCode(hostile(20, "a"), "markdown", { budget });
    expect(a.stopped).toBe("budget");
    expect(budget.remainingMs).toBe(0);
    const b = await highlightCode("const b = 1;\n", "typescript", { budget });
    expect(b).toMatchObject({ stopped: "budget", highlightedLines: 0, totalLines: 1 });
    expect(b.html).toContain('<span class="line" id="L1">const b = 1;</span>');
  });

  it(`answers "busy" at once, with plain text, past ${MAX_IN_FLIGHT} tasks in flight`, async () => {
    const all = Array.from({ length: MAX_IN_FLIGHT + 3 }, (_, i) => highlightCode(hostile(10, `busy ${i}`), "markdown"));
    const results = await Promise.all(all);
    const busy = results.filter((r) => r.stopped === "busy");
    expect(busy).toHaveLength(3);
    for (const r of busy) expect(r.html).toMatch(/^<pre class="shiki" tabindex="0"><code><span class="line" id="L1">/);
    expect(highlightTasksInFlight()).toBe(0);
  });
});
