/**
 * The repository home (docs/performance.md "Hardening II, item 18"): how long `/<owner>/<repo>`
 * takes to its main content (the file list) through the production server, against what git
 * itself needs for the page's data, measured in the same run.
 *
 *   npx tsx bench/repo-home.bench.ts [--commits 6000] [--runs 15] [--root /tmp/svc-old] [--browser] [--steps | --steps-only]
 *
 * Needs a build (`node scripts/start.mjs --build-only`; the server start builds when there is
 * none). The fixture is express-like and made without the network: `git fast-import` of
 * `--commits` commits (1–3 files each, ~110 top-level entries over ~420 files, a 12 KB README with
 * 14 fenced code blocks edited every 50 commits, 300 tags, 6 branches), then `git repack -a -d`;
 * cached under $TMPDIR/svc-bench-cache/ and copied into a public repository of a temp DATA_DIR.
 * The server (`--root`: another built svc folder, for an A/B of two commits) runs on a free
 * loopback port; each run is one anonymous GET of the page, its HTML read as it streams.
 *
 * Prints per run kind (cold: the first request after a push, i.e. a new commit on `main`; warm:
 * the same page again) the median time to the first byte, to the file list
 * (`data-testid="file-tree"` in the stream), to the README, to the end of the page and to the
 * page's stylesheet fetched alongside (what a browser's first paint waits for); and the physical
 * limit: the git commands the page's data needs (`for-each-ref`, `ls-tree`, `log -1`,
 * `rev-list --count`, `cat-file` of the README), run one after the other.
 *
 * `--browser` adds Chromium (/usr/bin/chromium), ms from navigation start: the first frame in
 * which the file list is visible (an in-page requestAnimationFrame probe), when Playwright's
 * `waitFor visible` sees it, first contentful paint, the stylesheet and the last JS chunk loaded,
 * DOMContentLoaded. Cold and warm are first visits (a new browser context); cached is the cold
 * view's context again (stylesheet and scripts from the HTTP cache). `BENCH_DEBUG=1` prints each
 * view's timings (with when React's completion script for the boundary holding the file list ran
 * and React's first-frame time `$RT`, if any) and writes the last streamed HTML with chunk
 * arrival marks to $TMPDIR/repo-home.bench.html; `BENCH_TRACE=<file>` writes a Chromium trace of
 * the first view. Timings are printed, never asserted. Not part of the tests.
 */
import http from "node:http";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { openBenchDatabase } from "./support";
import { fixtureRepository, gitSync } from "./repo-home-fixture";
import { startProductionServer } from "./production-server";

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const COMMITS = Number(opt("commits") ?? 6000);
const RUNS = Number(opt("runs") ?? 15);
const BROWSER = args.includes("--browser");
const STEPS_ONLY = args.includes("--steps-only");
const STEPS = STEPS_ONLY || args.includes("--steps");
const ROOT = path.resolve(import.meta.dirname, "..");
const SERVER_ROOT = path.resolve(opt("root") ?? ROOT);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const cached = fixtureRepository(COMMITS);

const bench = await openBenchDatabase("home");
process.env.SVC_APP_ROOT = ROOT;
const { getDb, closeDb } = await import("@/server/db");
const { signUp } = await import("@/server/services/users/sign-up");
const { createRepository } = await import("@/server/services/repos/create-repository");
const { SCOPES } = await import("@/server/auth/scopes");
const db = await getDb();
const user = await signUp(db, { username: "bench", password: "password123" });
const repo = await createRepository(db, { user: { ...user, isAdmin: false }, via: "session", scopes: SCOPES }, { name: "express" });
rmSync(repo.gitDir, { recursive: true, force: true });
cpSync(cached, repo.gitDir, { recursive: true });
const top = gitSync(repo.gitDir, ["ls-tree", "main"]).trim().split("\n").length;
const files = gitSync(repo.gitDir, ["ls-tree", "-r", "--name-only", "main"]).trim().split("\n").length;
console.log(`fixture: ${COMMITS} commits, ${top} top-level entries, ${files} files (${bench.dir})`);

/** A new commit on main (the README untouched, one file changed): a "push" the next cold run reads. */
let pushes = 0;
function push(): void {
  pushes++;
  const head = gitSync(repo.gitDir, ["rev-parse", "main"]).trim();
  const blob = gitSync(repo.gitDir, ["hash-object", "-w", "--stdin"], `pushed ${pushes}\n`).trim();
  const entries = gitSync(repo.gitDir, ["ls-tree", "main"])
    .split("\n")
    .filter((l) => l && !l.endsWith("\tpushed.txt"));
  entries.push(`100644 blob ${blob}\tpushed.txt`);
  const tree = gitSync(repo.gitDir, ["mktree"], entries.join("\n") + "\n").trim();
  const commit = gitSync(repo.gitDir, ["commit-tree", tree, "-p", head, "-m", `push ${pushes}`]).trim();
  gitSync(repo.gitDir, ["update-ref", "refs/heads/main", commit, head]);
}

/**
 * `--steps`: the page's data one procedure at a time, in this process (an anonymous caller, as
 * the page's), and the README's Markdown render (react-dom's stream renderer, code blocks on the
 * highlight pool): median ms of the first call after a push and of a repeat.
 */
async function steps(): Promise<void> {
  const { createCaller } = await import("@/server/api/root");
  const { contextFor } = await import("@/server/api/trpc");
  const { gitProcessCounts } = await import("@/server/git/exec");
  const { renderToReadableStream } = await import("react-dom/server");
  const { createElement } = await import("react");
  const { MarkdownView } = await import("@/components/code/markdown");
  const caller = createCaller(await contextFor(null));
  const repoId = repo.id;
  const head = () => gitSync(repo.gitDir, ["rev-parse", "main"]).trim();
  const list: [string, () => Promise<unknown>][] = [
    ["repos.get", () => caller.repos.get({ owner: "bench", name: "express" })],
    ["repos.branches", () => caller.repos.branches({ repoId })],
    ["issues.counts + pulls.counts", () => Promise.all([caller.issues.counts({ repoId }), caller.pulls.counts({ repoId })])],
    ["pulls.recentBranches", () => caller.pulls.recentBranches({ repoId })],
    ["repos.tree (root)", () => caller.repos.tree({ repoId, ref: "main", path: "" })],
    ["repos.commits (limit 1)", () => caller.repos.commits({ repoId, ref: head(), limit: 1 })],
    ["repos.commitCount", () => caller.repos.commitCount({ repoId, ref: head() })],
    ["repos.blob (README)", () => caller.repos.blob({ repoId, ref: head(), path: "README.md" })],
    [
      "README render",
      async () => {
        const text = gitSync(repo.gitDir, ["cat-file", "-p", "main:README.md"]);
        const stream = await renderToReadableStream(
          createElement(MarkdownView, { source: text, owner: "bench", repo: "express", gitRef: "main", dir: "" }),
        );
        await stream.allReady;
        return new Response(stream).text();
      },
    ],
  ];
  const times = new Map(list.map(([name]) => [name, { cold: [] as number[], warm: [] as number[], git: 0 }]));
  const time = async (fn: () => Promise<unknown>) => {
    const s = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - s) / 1e6;
  };
  for (const [, fn] of list) await fn(); // first loads (modules, the highlight pool)
  for (let i = 0; i < RUNS; i++) {
    push();
    for (const [name, fn] of list) {
      const t = times.get(name)!;
      const started = gitProcessCounts().started;
      t.cold.push(await time(fn));
      t.git = gitProcessCounts().started - started;
      t.warm.push(await time(fn));
    }
  }
  console.log(`\nin-process steps, ${RUNS} runs, load ${os.loadavg()[0]!.toFixed(1)}`);
  console.log("| step | after a push ms | again ms | git processes (after a push) |\n|---|---:|---:|---:|");
  for (const [name, t] of times) console.log(`| ${name} | ${median(t.cold).toFixed(1)} | ${median(t.warm).toFixed(1)} | ${t.git} |`);
}

/** The git work of the page, one command after the other (ms). */
function gitLimit(): number {
  const s = process.hrtime.bigint();
  gitSync(repo.gitDir, ["for-each-ref", "--format=%(refname) %(objectname) %(committerdate:iso-strict)", "refs/heads/"]);
  gitSync(repo.gitDir, ["ls-tree", "-l", "main"]);
  gitSync(repo.gitDir, ["log", "-1", "--format=%H%x00%an%x00%aI%x00%B", "main", "--"]);
  gitSync(repo.gitDir, ["rev-list", "--count", "main", "--"]);
  gitSync(repo.gitDir, ["cat-file", "-p", "main:README.md"]);
  return Number(process.hrtime.bigint() - s) / 1e6;
}

if (STEPS) await steps();
await closeDb();
if (STEPS_ONLY) {
  await bench.drop();
  process.exit(0);
}

// ---- the production server ----
const server = await startProductionServer({ root: SERVER_ROOT, dataDir: bench.dir, databaseUrl: bench.url });
const port = server.port;

interface PageTiming {
  firstByte: number;
  fileList: number;
  readme: number;
  end: number;
  /** The page's stylesheet (render-blocking in a browser) fully received, asked for as soon as its `<link>` arrived; -1: none (inlined). */
  stylesheet: number;
}

/** A GET of `url` read to its end (rejects on a status other than 200). */
function getAll(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url}: status ${res.statusCode}`));
        res.resume();
        res.on("end", () => resolve());
      })
      .on("error", reject);
  });
}

const PAGE = "/bench/express";
/**
 * One GET of the repository home; times (ms from the request) to the first byte, the file list,
 * the README, the end, and to its stylesheet, fetched alongside as a browser does (on another
 * connection, from when its `<link>` is in the stream) — how long the page's own render keeps the
 * server from answering the one file a first paint waits for.
 */
function page(): Promise<PageTiming> {
  const s = process.hrtime.bigint();
  const ms = () => Number(process.hrtime.bigint() - s) / 1e6;
  return new Promise((resolve, reject) => {
    http
      .get(`http://127.0.0.1:${port}${PAGE}`, (res) => {
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
        const t: PageTiming = { firstByte: -1, fileList: -1, readme: -1, end: -1, stylesheet: -1 };
        let stylesheet: Promise<void> | null = null;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          if (t.firstByte < 0) t.firstByte = ms();
          if (process.env.BENCH_DEBUG) body += `<!--chunk ${ms().toFixed(0)} ms-->`;
          body += c;
          const css = stylesheet ? null : /<link rel="stylesheet" href="([^"]+)"/.exec(body);
          if (css) stylesheet = getAll(`http://127.0.0.1:${port}${css[1]}`).then(() => void (t.stylesheet = ms()));
          if (t.fileList < 0 && body.includes('data-testid="file-tree"')) t.fileList = ms();
          if (t.readme < 0 && body.includes('data-testid="readme"')) t.readme = ms();
        });
        res.on("end", () => {
          t.end = ms();
          if (process.env.BENCH_DEBUG) writeFileSync(path.join(os.tmpdir(), "repo-home.bench.html"), body);
          if (t.fileList < 0 || t.readme < 0) reject(new Error(`the page has no file list or README: ${body.slice(0, 500)}`));
          else if (!stylesheet)
            resolve(t); // styles inlined in the HTML: -1
          else stylesheet.then(() => resolve(t), reject);
        });
      })
      .on("error", reject);
  });
}

type Browser = import("playwright").Browser;
type BrowserContext = import("playwright").BrowserContext;
let browser: Browser | null = null;

/** One Chromium view of the page (ms): Playwright's wait, and the browser's own clock from navigation start. */
interface BrowserTiming {
  /** From `goto` until Playwright sees the file list visible (its polling included). */
  visible: number;
  /** First frame in which the file list was visible (in-page `requestAnimationFrame` check, ±1 frame). */
  painted: number;
  /** First contentful paint. */
  fcp: number;
  /** The page's stylesheets loaded (the last one's responseEnd): a render-blocking resource. */
  css: number;
  /** DOMContentLoaded handled. */
  dcl: number;
  /** The last JS chunk loaded (responseEnd). */
  js: number;
}

/**
 * Runs in the page before its own scripts: each animation frame (the browser's paint points)
 * checks whether the file list is shown and keeps the first frame's time in `__fileListPaint`.
 */
const PAINT_PROBE = `(() => {
  const check = () => {
    const el = document.querySelector('[data-testid="file-tree"]');
    if (el && el.checkVisibility() && el.getBoundingClientRect().height > 0) window.__fileListPaint = performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  // React's time of the first frame after the shell ($RT; later reveals move it): the first value
  let rt;
  Object.defineProperty(window, "$RT", {
    configurable: true,
    get: () => rt,
    set: (v) => {
      window.__shellFrame ??= v;
      rt = v;
    },
  });
  // React's streamed-boundary completion ($RC, inline in the HTML): when the one holding the file list ran
  let rc;
  Object.defineProperty(window, "$RC", {
    configurable: true,
    get: () => rc,
    set: (f) => {
      rc = function (a, b) {
        if (document.getElementById(b)?.querySelector('[data-testid="file-tree"]')) window.__fileListBoundary = performance.now();
        return f(a, b);
      };
    },
  });
})();`;

/** The navigation's milestones and the slowest resources, read in the page (ms from navigation start). */
const NAVIGATION_TIMINGS = `(() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const res = performance.getEntriesByType("resource");
  const end = (re) => Math.max(0, ...res.filter((r) => re.test(new URL(r.name).pathname)).map((r) => r.responseEnd));
  const css = res.find((r) => /\\.css$/.test(new URL(r.name).pathname));
  const slow = [...res].sort((a, b) => b.responseEnd - a.responseEnd).slice(0, 6)
    .map((r) => r.name.slice(-40) + " " + r.startTime.toFixed(0) + "→" + r.responseEnd.toFixed(0));
  return {
    ttfb: nav.responseStart,
    htmlEnd: nav.responseEnd,
    painted: window.__fileListPaint,
    boundaryArrived: window.__fileListBoundary ?? null,
    shellFrame: window.__shellFrame ?? null,
    fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? -1,
    cssStart: css ? css.startTime : null,
    css: end(/\\.css$/),
    js: end(/\\.js$/),
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    slow,
  };
})()`;

let traced = false;
/** Chromium's times (ms from navigation start) until the file list is visible, and the navigation's milestones. */
async function browserPage(context: BrowserContext): Promise<BrowserTiming> {
  const p = await context.newPage();
  try {
    await p.addInitScript(PAINT_PROBE);
    const trace = process.env.BENCH_TRACE && !traced ? process.env.BENCH_TRACE : null;
    if (trace) await browser!.startTracing(p, { categories: ["devtools.timeline", "v8.execute", "blink.user_timing", "loading"] });
    const s = Date.now();
    await p.goto(`http://127.0.0.1:${port}${PAGE}`, { waitUntil: "commit" });
    await p.locator('[data-testid="file-tree"]').waitFor({ state: "visible" });
    const visible = Date.now() - s;
    await p.waitForFunction(() => typeof (window as { __fileListPaint?: number }).__fileListPaint === "number");
    await p.waitForLoadState("load");
    // a string, not a function: tsx's name helpers (`__name`) do not exist in the page
    const t = (await p.evaluate(NAVIGATION_TIMINGS)) as {
      ttfb: number;
      htmlEnd: number;
      painted: number;
      boundaryArrived: number | null;
      shellFrame: number | null;
      fcp: number;
      css: number;
      js: number;
      dcl: number;
      load: number;
      slow: string[];
    };
    if (trace) {
      writeFileSync(trace, await browser!.stopTracing());
      traced = true;
    }
    if (process.env.BENCH_DEBUG) console.log(JSON.stringify({ visible, ...t }));
    return { visible, painted: t.painted, fcp: t.fcp, css: t.css, dcl: t.dcl, js: t.js };
  } finally {
    await p.close();
  }
}

const rows: Record<"cold" | "warm", PageTiming[]> = { cold: [], warm: [] };
const chromium: Record<"cold" | "warm" | "cached", BrowserTiming[]> = { cold: [], warm: [], cached: [] };
const limits: number[] = [];
try {
  if (BROWSER) {
    const { chromium: c } = await import("playwright");
    browser = await c.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium" });
  }
  for (let i = 0; i < 3; i++) await page(); // the server's first compilations and caches
  for (let i = 0; i < RUNS; i++) {
    push();
    rows.cold.push(await page());
    rows.warm.push(await page());
    limits.push(gitLimit());
    if (browser) {
      push();
      // cold and warm: a first visit (a new context, nothing in the HTTP cache); cached: the same
      // page again in the cold view's context (stylesheet and scripts from the HTTP cache)
      const visitor = await browser.newContext();
      chromium.cold.push(await browserPage(visitor));
      const stranger = await browser.newContext();
      chromium.warm.push(await browserPage(stranger));
      await stranger.close();
      chromium.cached.push(await browserPage(visitor));
      await visitor.close();
    }
  }
} finally {
  await browser?.close();
  await server.stop();
}

const limit = median(limits);
console.log(
  `\n${RUNS} runs, load ${os.loadavg()[0]!.toFixed(1)}, server ${SERVER_ROOT}; git's work for the page (limit): ${limit.toFixed(0)} ms`,
);
console.log(
  "| run | first byte ms | file list ms | README ms | end ms | stylesheet ms | file list ÷ limit |\n|---|---:|---:|---:|---:|---:|---:|",
);
for (const kind of ["cold", "warm"] as const) {
  const m = (k: keyof PageTiming) => median(rows[kind].map((r) => r[k]));
  console.log(
    `| ${kind} | ${m("firstByte").toFixed(0)} | ${m("fileList").toFixed(0)} | ${m("readme").toFixed(0)} | ${m("end").toFixed(0)} | ${m("stylesheet") < 0 ? "inline" : m("stylesheet").toFixed(0)} | ${(m("fileList") / limit).toFixed(2)}× |`,
  );
}
if (BROWSER) {
  console.log(
    "\nChromium (ms from navigation start; goal: file list < 600 ms)\n| run | file list painted | Playwright sees it | first contentful paint | CSS loaded | last JS chunk | DOMContentLoaded |\n|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const kind of ["cold", "warm", "cached"] as const) {
    const m = (k: keyof BrowserTiming) => median(chromium[kind].map((r) => r[k])).toFixed(0);
    console.log(`| ${kind} | ${m("painted")} | ${m("visible")} | ${m("fcp")} | ${m("css")} | ${m("js")} | ${m("dcl")} |`);
  }
}
await bench.drop();
