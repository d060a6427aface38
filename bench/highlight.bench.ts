/**
 * Highlighting benchmark (docs/performance.md "Highlighting"; docs/security.md "Hardening II,
 * item 1"): `npx tsx bench/highlight.bench.ts [--runs 5]` (not part of the tests).
 *
 * Serves svc's HTTP endpoints on 127.0.0.1 (test/helpers.ts `startServer`, in this process) and
 * times, median of `runs`:
 *   - the physical limit: `POST /api/highlight` with 600 lines of a plain-text file (nothing to
 *     highlight: the HTTP round trip, the JSON and the checks);
 *   - the same 600 lines as TypeScript, cold (new text each run: tokenized on the worker pool)
 *     and warm (the same text again: the cache), as a ratio of the plain request;
 *   - a 2,000-line TypeScript file's code view (`highlightFile`), cold, with the lines the budget
 *     covered;
 *   - the issue's hostile requests (200 and 2,000 lines of `"*_".repeat(240)` in a.md), each
 *     with cheap requests (`issues.priorities`) sent one after the other while it runs: its time,
 *     the slowest cheap answer and the event loop's longest stall meanwhile (before the pool: the
 *     whole 17 s / 152 s).
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import path from "node:path";
import { readFileSync } from "node:fs";
import { openBenchDatabase } from "./support";

const args = process.argv.slice(2);
const RUNS = (() => {
  const i = args.indexOf("--runs");
  return i >= 0 ? Number(args[i + 1]) : 5;
})();

process.env.SVC_APP_ROOT ??= path.resolve(import.meta.dirname, "..");
const db = await openBenchDatabase("highlight");
const { startServer } = await import("../test/helpers");
const { highlightFile } = await import("@/server/highlight");
const { warmHighlighter, HIGHLIGHT_THREADS, MAX_IN_FLIGHT } = await import("@/server/highlight/pool");

const server = await startServer();
await warmHighlighter();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f1 = (n: number) => n.toFixed(1);

async function post(path: string, lines: string[]): Promise<{ ms: number; stopped?: string }> {
  const t = performance.now();
  const res = await fetch(`${server.url}/api/highlight`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.9" },
    body: JSON.stringify({ files: [{ path, lines }] }),
  });
  const body = (await res.json()) as { stopped?: string };
  if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(body)}`);
  return { ms: performance.now() - t, stopped: body.stopped };
}

const source = ["server/highlight/index.ts", "server/highlight/pool.ts", "lib/highlight/code.ts", "components/markdown/cost.ts"]
  .map((f) => readFileSync(path.resolve(import.meta.dirname, "..", f), "utf8"))
  .join("\n")
  .split("\n");
const lines = (n: number, salt: string) =>
  Array.from({ length: n }, (_, i) => source[i % source.length]!.replace(/^/, i === 0 ? `// ${salt}\n` : "")).map((l) =>
    l.replace(/\n/g, " "),
  );

const plain: number[] = [];
const cold: number[] = [];
const warm: number[] = [];
const coldStops: string[] = [];
for (let r = 0; r < RUNS; r++) {
  plain.push((await post("notes.txt", lines(600, `p${r}`))).ms);
  const text = lines(600, `c${r}-${Date.now()}`);
  const c = await post("a.ts", text);
  cold.push(c.ms);
  if (c.stopped) coldStops.push(c.stopped);
  warm.push((await post("a.ts", text)).ms);
}
console.log(`highlight pool: ${HIGHLIGHT_THREADS} thread(s), at most ${MAX_IN_FLIGHT} tasks in flight`);
console.log(`POST /api/highlight, 600 lines, median of ${RUNS}:`);
console.log(`  plain text (the physical limit)  ${f1(median(plain))} ms`);
console.log(
  `  TypeScript, cold                 ${f1(median(cold))} ms  = ${f1(median(cold) / median(plain))}× plain${coldStops.length ? `  (stopped: ${coldStops.join(", ")})` : ""}`,
);
console.log(`  TypeScript, warm (cached)        ${f1(median(warm))} ms  = ${f1(median(warm) / median(plain))}× plain`);

const view: number[] = [];
let covered = "";
for (let r = 0; r < RUNS; r++) {
  const text = lines(2000, `v${r}-${Date.now()}`).join("\n");
  const t = performance.now();
  const h = (await highlightFile(text, "big.ts"))!;
  view.push(performance.now() - t);
  covered = `${h.highlightedLines}/${h.totalLines} lines highlighted${h.stopped ? ` (stopped: ${h.stopped})` : ""}`;
}
console.log(`code view of a 2,000-line TypeScript file, cold: ${f1(median(view))} ms, last run ${covered}`);

for (const n of [200, 2000]) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let done = false;
  const hostile = post("a.md", Array(n).fill("*_".repeat(240))).finally(() => (done = true));
  const cheap: number[] = [];
  while (!done || cheap.length === 0) {
    const t = performance.now();
    const res = await fetch(`${server.url}/api/trpc/issues.priorities`);
    await res.arrayBuffer();
    cheap.push(performance.now() - t);
  }
  const h = await hostile;
  delay.disable();
  console.log(
    `hostile ${n} lines of "*_"×240 in a.md: ${f1(h.ms)} ms (stopped: ${h.stopped ?? "no"}); meanwhile ${cheap.length} cheap requests, ` +
      `median ${f1(median(cheap))} ms, slowest ${f1(Math.max(...cheap))} ms; event loop's longest stall ${f1(delay.max / 1e6)} ms`,
  );
}

await server.close();
await db.drop();
process.exit(0);
