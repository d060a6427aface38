/**
 * A large pull request in the browser (docs/pulls.md "Viewer"): 2,000 files / 100,000 changed
 * lines. The Files changed tab must show its first file and stay scrollable: the test asserts
 * what a person sees (first file, later files reachable by scrolling, the page responsive), and
 * prints — never asserts — the timings, recorded in docs/performance.md ("Large pull request in
 * the browser"). Generated here: the repository is written with fs and pushed with the real git.
 */
import { test, expect } from "./fixtures";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit } from "./git";
import { newUser } from "./session";

const stamp = Date.now().toString(36);
const FILES = 2000;
const LINES = 50; // changed lines per file: 2,000 × 50 = 100,000

test("a 2,000-file / 100k-line pull request: first file visible, scrolls to the end, timings printed", async ({ browser, baseURL }) => {
  test.setTimeout(600_000);
  const user = await newUser(browser, baseURL!, "large", stamp);
  const { username, context } = user;
  const trpc = user.trpc;
  const repo = await trpc("repos.create", { name: "large" });
  const token = await user.token();
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-large-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-large-repo-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFileSync(path.join(dir, "README.md"), "# Large\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("checkout", "--quiet", "-b", "huge");
  for (let i = 0; i < FILES; i++) {
    const folder = path.join(dir, `pkg${String(i % 40).padStart(2, "0")}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      path.join(folder, `mod${String(i).padStart(4, "0")}.ts`),
      Array.from({ length: LINES }, (_, k) => `export const value${k} = ${i} + ${k}; // file ${i}`).join("\n") + "\n",
    );
  }
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add 2,000 modules");
  const remote = user.remote(username, "large", token);
  git("push", "--quiet", remote, "main", "huge");
  const tip = (name: string) => git("rev-parse", name).trim();
  const pr = await trpc("pulls.create", {
    repoId: repo.id,
    title: "Add 2,000 modules",
    sourceBranch: "huge",
    targetBranch: "main",
    headSha: tip("huge"),
    baseSha: tip("main"),
  });

  const page = user.page;
  // the frame in which the first file header is first drawn visible, in the page's own clock (ms
  // since the navigation started): Playwright's waiting polls with growing pauses, which would add
  // up to half a second to the reading
  await page.addInitScript(() => {
    const w = window as unknown as { __firstFileMs?: number };
    const tick = () => {
      const el = document.querySelector('[data-testid="diff-file"]');
      if (el && el.checkVisibility() && el.getBoundingClientRect().height > 0) w.__firstFileMs = Math.round(performance.now());
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  // from the first response byte on, poll (in the page, every frame) for the first file's header:
  // the time a reader sees it, which may come before the document's load event (the rest of the
  // highlighting streams after the first screen)
  await page.goto(`/${username}/large/pulls/${pr.number}/files`, { waitUntil: "commit" });
  await page.getByTestId("diff-file").first().waitFor({ state: "visible" });
  const firstFileMs = Date.now() - started;
  await page.locator("html[data-shortcuts='on']").waitFor({ state: "attached" });
  const hydratedMs = Date.now() - started;
  await page.waitForLoadState("load");
  await expect(page.getByTestId("diff-summary")).toContainText("2000 changed files");
  // the first screen is syntax-highlighted (token colours as inline light-dark() styles)
  await expect(page.locator("[data-line-type] span[style*='light-dark']").first()).toBeVisible();
  const navigation = await page.evaluate(() => {
    const n = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    return {
      firstFile: (window as unknown as { __firstFileMs?: number }).__firstFileMs ?? -1,
      responseEnd: Math.round(n.responseEnd),
      domContentLoaded: Math.round(n.domContentLoadedEventEnd),
      load: Math.round(n.loadEventEnd),
      htmlKB: Math.round(n.decodedBodySize / 1024),
      elements: document.getElementsByTagName("*").length,
    };
  });

  // scroll to the end in steps, as a reader would, timing how long each step's frame takes
  const scroll = await page.evaluate(async () => {
    const frames: number[] = [];
    let last = performance.now();
    for (let step = 0; step < 60; step++) {
      window.scrollBy(0, document.documentElement.scrollHeight / 60);
      await new Promise((r) => requestAnimationFrame(() => r(null)));
      const now = performance.now();
      frames.push(now - last);
      last = now;
    }
    frames.sort((a, b) => a - b);
    return { p50: Math.round(frames[Math.floor(frames.length / 2)]), max: Math.round(frames[frames.length - 1]) };
  });
  // the last files are reachable: keep scrolling until one of the last modules is drawn
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.locator('[data-testid="diff-file"][data-path^="pkg"]').last()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000 });
  // files far below the first screen are highlighted too, once they are on screen (POST /api/highlight)
  await expect(page.locator("[data-line-type] span[style*='light-dark']").first()).toBeVisible({ timeout: 30_000 });
  const rendered = await page.getByTestId("diff-file").count();
  expect(rendered).toBeLessThan(FILES); // virtualized: not every file's rows are in the page at once

  const line = `large pull request (${FILES} files, ${FILES * LINES} lines): first file drawn ${navigation.firstFile} ms after navigation start (seen by Playwright at ${firstFileMs} ms), hydrated ${hydratedMs} ms (response end ${navigation.responseEnd} ms, DOMContentLoaded ${navigation.domContentLoaded} ms, load ${navigation.load} ms, HTML ${navigation.htmlKB} kB, ${navigation.elements} elements); scroll frames p50 ${scroll.p50} ms, max ${scroll.max} ms; file headers in the page ${rendered}`;
  console.log(line);
  test.info().annotations.push({ type: "timing", description: line });
  await context.close();
});
