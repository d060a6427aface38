/**
 * Highlighting is not a denial of service (issue #20 item 1; docs/security.md "Hardening II,
 * item 1"): the exact payloads — 200 and 2,000 lines of `"*_".repeat(240)` in `a.md` to
 * `POST /api/highlight` (17 s and 152 s before), a 60-line Markdown file of it on the blob page
 * (code view and preview; 43 s before), a 20-line file of it in a pull request's Files changed
 * tab (3.5 s before) — answer within seconds with the rest plain (said so), and meanwhile the
 * server's event loop stays free: cheap requests sent while they run answer fast and the
 * event-loop delay stays small. Real HTTP (test/helpers.ts `startServer`), the real worker pool.
 * Thresholds are generous (a loaded 2-core machine); before the fix each of these took seconds
 * to minutes with the event loop blocked all along.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MarkdownRenderer } from "@/components/markdown/renderer";
import { highlightDiff, highlightFile } from "@/server/highlight";
import { warmHighlighter } from "@/server/highlight/pool";
import type { DiffHighlights } from "@/lib/highlight/runs";
import { startServer } from "../helpers";

const LINE = "*_".repeat(240);
/** The hostile request may take this long (the issue asks < 1 s on a quiet machine; before: 17 s to 152 s). */
const HOSTILE_MS = 5_000;
/** A cheap request sent meanwhile, and the event loop's longest stall, stay under this (before: the whole hostile time). */
const CHEAP_MS = 1_000;

let server: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  server = await startServer();
  await warmHighlighter();
});
afterAll(() => server.close());

/**
 * Runs `hostile()` while sending cheap requests (`issues.priorities` over HTTP) one after the
 * other until it is done; returns its result and time, the slowest cheap answer and the longest
 * event-loop stall seen meanwhile (ms).
 */
async function whileCheap<T>(hostile: () => Promise<T>): Promise<{ result: T; hostileMs: number; cheapMs: number; stallMs: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const started = performance.now();
  let done = false;
  const run = hostile().finally(() => (done = true));
  let hostileMs = 0;
  void run.then(() => (hostileMs = performance.now() - started));
  let cheapMs = 0;
  let cheap = 0;
  while (!done || cheap === 0) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/trpc/issues.priorities`);
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    cheapMs = Math.max(cheapMs, performance.now() - t);
    cheap++;
  }
  const result = await run;
  delay.disable();
  return { result, hostileMs, cheapMs, stallMs: delay.max / 1e6 };
}

const postHighlight = async (lines: string[]) => {
  const res = await fetch(`${server.url}/api/highlight`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${lines.length % 250}` },
    body: JSON.stringify({ files: [{ path: "a.md", lines }] }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as DiffHighlights;
};

describe("hostile highlighting does not block the server", () => {
  for (const n of [200, 2_000]) {
    it(`POST /api/highlight with ${n} lines of "*_" × 240 in a.md: answered in time, the rest plain (stopped: "budget")`, async () => {
      const { result, hostileMs, cheapMs, stallMs } = await whileCheap(() => postHighlight(Array(n).fill(LINE)));
      expect(result.stopped).toBe("budget");
      expect(result.files).toHaveLength(1);
      expect(hostileMs).toBeLessThan(HOSTILE_MS);
      expect(cheapMs).toBeLessThan(CHEAP_MS);
      expect(stallMs).toBeLessThan(CHEAP_MS);
    });
  }

  it("the blob page's code view of a 60-line a.md of it: highlighted in time, the rest plain", async () => {
    const text = Array(60).fill(LINE).join("\n") + "\n";
    const { result, hostileMs, cheapMs, stallMs } = await whileCheap(() => highlightFile(text, "a.md"));
    expect(result!.stopped).toBe("budget");
    expect(result!.highlightedLines).toBeLessThan(60);
    expect(result!.html.match(/<span class="line" id="L\d+">/g)).toHaveLength(60);
    expect(hostileMs).toBeLessThan(HOSTILE_MS);
    expect(cheapMs).toBeLessThan(CHEAP_MS);
    expect(stallMs).toBeLessThan(CHEAP_MS);
  });

  it("the blob page's Markdown preview of the same file renders in time, the text kept", async () => {
    const text = Array(60).fill(LINE).join("\n") + "\n";
    const started = performance.now();
    const html = renderToStaticMarkup(createElement(MarkdownRenderer, { source: text }));
    // rendering runs on the event loop: its whole time is the stall (43 s before)
    expect(performance.now() - started).toBeLessThan(HOSTILE_MS);
    expect(html).toContain('data-testid="markdown-bounded"');
    expect(html).toContain(LINE.slice(0, 40));
  });

  it("the Files changed tab's first screen with a 20-line a.md of it: in time, the rest plain", async () => {
    const diff = {
      files: [{ newPath: "a.md", isBinary: false, hunks: [{ lines: Array.from({ length: 20 }, () => ({ content: LINE })) }] }],
    };
    const { result, hostileMs, cheapMs, stallMs } = await whileCheap(() => highlightDiff(diff, { to: 1 }));
    expect(result.stopped).toBe("budget");
    expect(hostileMs).toBeLessThan(HOSTILE_MS);
    expect(cheapMs).toBeLessThan(CHEAP_MS);
    expect(stallMs).toBeLessThan(CHEAP_MS);
  });
});
