/**
 * The highlighting worker pool's bounds (server/highlight; docs/security.md "Hardening II, item
 * 1"): the per-request budget shared by a request's tasks, the in-flight cap answering "busy" at
 * once, and the cache of complete results only (lru-cache, bounded by size).
 */
import { describe, expect, it } from "vitest";
import { highlightCode, HighlightBudget, MAX_IN_FLIGHT } from "@/server/highlight";
import { highlightTasksInFlight, warmHighlighter } from "@/server/highlight/pool";

const hostile = (n: number, salt: string) => Array.from({ length: n }, () => "*_".repeat(240)).join("\n") + `\n${salt}\n`;

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
