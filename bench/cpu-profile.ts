/**
 * Reads a V8 `.cpuprofile` (what `node --cpu-prof` writes) and lists where the time went: the
 * functions with the most self time and the most total time (self + callees, counted once per
 * sample even when a function recurses). Used by bench/request-floor.bench.ts
 * (`--cpu-prof <dir>`); also runnable alone:
 *
 *   npx tsx bench/cpu-profile.ts <file.cpuprofile> [--top 25] [--match <regex on url or name>]
 *
 * Units: ms of sampled CPU time and % of all samples (idle and GC included, as V8 labels them).
 */
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** One function's line: "name (file:line)", self and total ms and % of the samples. */
export interface FunctionTime {
  where: string;
  selfMs: number;
  totalMs: number;
  selfPct: number;
  totalPct: number;
}

const maps = new Map<string, SourceMap | null>();
/** The source map beside a bundled file (`<file>.map`: Next writes them for its server chunks), or null. */
function mapOf(url: string): SourceMap | null {
  if (!maps.has(url)) {
    let map: SourceMap | null = null;
    try {
      const file = url.startsWith("file://") ? fileURLToPath(url) : url;
      if (file.includes("/.next/") && existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
    } catch {
      map = null;
    }
    maps.set(url, map);
  }
  return maps.get(url)!;
}

/** "name (file:line)", mapped back to the original source through the bundle's source map when there is one. */
const label = (n: ProfileNode): string => {
  const f = n.callFrame;
  const entry = (f.url ? mapOf(f.url)?.findEntry(f.lineNumber, f.columnNumber) : undefined) as
    { originalSource?: string; originalLine: number } | undefined;
  if (entry?.originalSource) {
    const source = entry.originalSource
      .replace(/^.*\/(node_modules|server|app|lib)\//, "$1/")
      .replace(/^turbopack:\/\/\/\[project\]\//, "");
    return `${f.functionName || "(anonymous)"} (${source}:${entry.originalLine + 1})`;
  }
  const file = f.url.replace(/^file:\/\//, "").replace(/^.*\/(node_modules|\.next)\//, "$1/");
  return `${f.functionName || "(anonymous)"}${file ? ` (${file}:${f.lineNumber + 1})` : ""}`;
};

/**
 * Self and total time per function of `profile`, sorted by self time, plus the sampled total
 * (ms). `only` keeps the samples whose stack has a frame matching it (e.g. the request handler).
 */
export function summarizeProfile(profile: CpuProfile, only?: RegExp): { functions: FunctionTime[]; sampledMs: number } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let sampledUs = 0;
  profile.samples.forEach((id, i) => {
    const us = Math.max(0, profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0);
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    if (only && !stack.some((n) => only.test(n.callFrame.url) || only.test(n.callFrame.functionName))) return;
    sampledUs += us;
    const leaf = label(stack[0]!);
    self.set(leaf, (self.get(leaf) ?? 0) + us);
    for (const where of new Set(stack.map(label))) total.set(where, (total.get(where) ?? 0) + us);
  });
  const pct = (us: number) => (sampledUs ? (100 * us) / sampledUs : 0);
  const functions = [...total.keys()].map((where) => ({
    where,
    selfMs: (self.get(where) ?? 0) / 1000,
    totalMs: total.get(where)! / 1000,
    selfPct: pct(self.get(where) ?? 0),
    totalPct: pct(total.get(where)!),
  }));
  functions.sort((a, b) => b.selfMs - a.selfMs);
  return { functions, sampledMs: sampledUs / 1000 };
}

/** Prints the `top` functions by self time and by total time of the profile in `file`. */
export function printProfile(file: string, top = 25, only?: RegExp): void {
  const { functions, sampledMs } = summarizeProfile(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, only);
  console.log(`\n${file}: ${sampledMs.toFixed(0)} ms sampled${only ? ` (stacks matching ${only})` : ""}`);
  console.log("\n| self ms | self % | function |\n|---:|---:|---|");
  for (const f of functions.slice(0, top)) console.log(`| ${f.selfMs.toFixed(1)} | ${f.selfPct.toFixed(1)} | ${f.where} |`);
  const byTotal = [...functions].sort((a, b) => b.totalMs - a.totalMs);
  console.log("\n| total ms | total % | function |\n|---:|---:|---|");
  for (const f of byTotal.slice(0, top)) console.log(`| ${f.totalMs.toFixed(1)} | ${f.totalPct.toFixed(1)} | ${f.where} |`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const opt = (name: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  if (!args[0]) throw new Error("usage: npx tsx bench/cpu-profile.ts <file.cpuprofile> [--top 25] [--match <regex>]");
  printProfile(args[0], Number(opt("top") ?? 25), opt("match") ? new RegExp(opt("match")!) : undefined);
}
