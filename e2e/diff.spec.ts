/**
 * The diff pages (docs/pulls.md "Viewer"): push a repository with a rename, a binary file and an
 * edit; open the commit page (file tree, rename arrow, binary marker), switch to split view
 * (remembered), and open the compare page between two branches (ahead/behind, commits, diff).
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { diffReady } from "./diff-ready";
import { signUpIn } from "./session";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";

const username = `diff${Date.now().toString(36)}`;
const REPO = "diffs";
let commitSha = "";
let bigSha = "";

async function trpc(page: Page, baseURL: string, proc: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${proc}`, { headers: { origin: baseURL }, data });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}

test.beforeAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage();
  await signUpIn(page.context(), username);
  await trpc(page, baseURL!, "repos.create", { name: REPO });
  const created = await page.request.post("/api/tokens", {
    headers: { origin: baseURL! },
    data: { name: "diff push", scopes: ["repo:write"] },
  });
  const { token } = await created.json();
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-diff-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-diff-repo-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(dir, "src/app.ts", Array.from({ length: 30 }, (_, i) => `export const v${i} = ${i};`).join("\n") + "\n");
  writeFile(dir, "notes/old name.md", "# Notes\n\nSome notes that will move.\nLine four.\nLine five.\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("checkout", "--quiet", "-b", "feature");
  git("mv", "notes/old name.md", "notes/new name.md");
  writeFile(
    dir,
    "src/app.ts",
    Array.from({ length: 30 }, (_, i) => (i === 10 ? "export const v10 = 100; // edited" : `export const v${i} = ${i};`)).join("\n") + "\n",
  );
  writeFileSync(path.join(dir, "logo.bin"), Buffer.from([0, 1, 2, 3, 0, 5, 6, 7]));
  git("add", "-A");
  git("commit", "--quiet", "-m", "Rename notes, edit app, add a binary");
  commitSha = git("rev-parse", "HEAD").trim();
  // a commit larger than the page's first response (PAGE_DIFF_LINES hunk lines): 40 files × 300 lines, on its own branch
  git("checkout", "--quiet", "-b", "big");
  for (let i = 0; i < 40; i++)
    writeFile(dir, `big/f${String(i).padStart(2, "0")}.txt`, Array.from({ length: 300 }, (_, k) => `big ${i} line ${k}`).join("\n") + "\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "A large commit");
  bigSha = git("rev-parse", "HEAD").trim();
  const remote = new URL(`${baseURL}/${username}/${REPO}.git`);
  remote.username = username;
  remote.password = token;
  git("push", "--quiet", remote.toString(), "main", "feature", "big");
  await page.context().storageState({ path: storagePath() });
  await page.close();
});

function storagePath() {
  return path.join(os.tmpdir(), `svc-diff-${username}.json`);
}

test("commit page: file tree, rename, binary, edit; split view is remembered", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storagePath(), viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/${username}/${REPO}/commit/${commitSha}`);
  await diffReady(page);
  await expect(page.getByTestId("commit-header")).toContainText("Rename notes, edit app, add a binary");
  const tree = page.getByTestId("diff-file-tree");
  await expect(tree.getByTestId("file-tree-item")).toHaveCount(3);
  await expect(page.getByTestId("diff-file-path")).toHaveText(["logo.bin", "notes/old name.md → notes/new name.md", "src/app.ts"]);
  await expect(page.getByTestId("diff-file").filter({ hasText: "logo.bin" })).toContainText("binary");
  await expect(page.getByTestId("diff-notice").first()).toContainText("Binary file not shown.");
  await expect(page.locator("[data-line-type='add']")).toContainText("export const v10 = 100; // edited");

  await page.getByTestId("view-split").click();
  await expect(page.getByTestId("diff-viewer")).toHaveAttribute("data-view", "split");
  await expect(page.getByTestId("split-row").first()).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("diff-viewer")).toHaveAttribute("data-view", "split");
  await page.getByTestId("view-unified").click();
  await expect(page.getByTestId("diff-viewer")).toHaveAttribute("data-view", "unified");

  await tree.getByTestId("file-tree-item").filter({ hasText: "app.ts" }).click();
  await expect(page.getByTestId("diff-file").filter({ hasText: "src/app.ts" })).toBeInViewport();
  await context.close();
});

test("history links to the commit page; compare page shows ahead/behind, commits and the diff", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storagePath(), viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/${username}/${REPO}/commits/feature`);
  await page.locator(`[data-testid='commit-row'][data-sha='${commitSha}']`).getByTestId("commit-sha").click();
  await expect(page).toHaveURL(new RegExp(`/commit/${commitSha}$`));
  await expect(page.getByTestId("diff-viewer")).toBeVisible();

  await page.goto(`/${username}/${REPO}/compare/main...feature`);
  await diffReady(page);
  await expect(page.getByTestId("ahead-behind")).toContainText("1 commit ahead of and 0 commits behind");
  await expect(page.getByTestId("compare-commits")).toContainText("Rename notes, edit app, add a binary");
  await expect(page.getByTestId("diff-file")).toHaveCount(3);
  await expect(page.getByTestId("compare-base")).toContainText("main");
  await expect(page.getByTestId("compare-head")).toContainText("feature");
  await context.close();
});

test("a commit larger than the first response loads the rest as it scrolls into view", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storagePath(), viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`/${username}/${REPO}/commit/${bigSha}`);
  await diffReady(page);
  await expect(page.getByTestId("diff-summary")).toContainText("40 changed files with 12000 additions");
  // virtualized: far fewer rows in the page than the 12,000 lines
  expect(await page.locator("[data-line-type]").count()).toBeLessThan(500);
  await page.getByTestId("diff-file-tree").getByTestId("file-tree-item").filter({ hasText: "f39.txt" }).click();
  await expect(page.locator("[data-line-type='add']").filter({ hasText: "big 39 line 0" })).toBeVisible({ timeout: 20_000 });

  // find in diff (`f`): a line of a file far off screen, whose hunks the page left out, found and scrolled to
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press("f");
  await expect(page.getByTestId("diff-find-input")).toBeFocused();
  await page.keyboard.type("big 25 line 150");
  await expect(page.getByTestId("diff-find-count")).toHaveText("1 of 1", { timeout: 20_000 });
  const found = page.locator("[data-find-current]");
  await expect(found).toContainText("big 25 line 150");
  await expect(found).toBeInViewport();
  await page.getByTestId("diff-find-input").fill("line 299");
  await expect(page.getByTestId("diff-find-count")).toHaveText("1 of 40", { timeout: 20_000 });
  await page.keyboard.press("Shift+Enter");
  await expect(page.getByTestId("diff-find-count")).toHaveText("40 of 40");
  await expect(page.locator("[data-find-current]")).toContainText("big 39 line 299");
  await context.close();
});

test("phone width: the commit page does not scroll sideways", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storagePath(), viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/${username}/${REPO}/commit/${commitSha}`);
  await expect(page.getByTestId("diff-viewer")).toBeVisible();
  await page.getByTestId("toggle-file-tree").click();
  // the tree is a full-width sheet (not a sliver beside the diff); choosing a file closes it and shows the file
  const sheet = page.getByTestId("diff-file-sheet");
  await expect(sheet.getByTestId("diff-file-tree")).toBeVisible();
  expect((await sheet.boundingBox())?.width).toBe(390);
  expect((await sheet.getByTestId("file-tree-item").first().boundingBox())?.width).toBeGreaterThan(300);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await sheet.getByTestId("file-tree-item").filter({ hasText: "app.ts" }).click();
  await expect(sheet).toHaveCount(0);
  await expect(page.getByTestId("diff-file").filter({ hasText: "src/app.ts" })).toBeInViewport();
  await expect(page.getByTestId("diff-file").filter({ hasText: "src/app.ts" }).getByRole("button").first()).toBeFocused();
  // Escape closes it too
  await page.getByTestId("toggle-file-tree").click();
  await expect(sheet).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(sheet).toHaveCount(0);
  await context.close();
});
