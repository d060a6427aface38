/**
 * Files changed by keyboard and on a phone (docs/ui.md "Keyboard shortcuts", docs/pulls.md
 * "Viewer"): "Review changes" opens on its text box; the line numbers are one tab stop per file
 * (Up/Down move it); `?` lists each key once; j/k move focus between file headers; the tree's
 * filter and file types narrow it; `t` jumps to a changed file. At 390 px the pull request and
 * repository tab rows scroll, the current tab in view and no label cut.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { diffReady } from "./diff-ready";
import { openPullRequest } from "./pull-fixture";
import { newUser, type E2EUser } from "./session";

const stamp = Date.now().toString(36);
let author: E2EUser;
let filesUrl = "";

const lines = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `export const ${tag}${i} = ${i};`).join("\n") + "\n";

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  author = await newUser(browser, baseURL!, "dkey", stamp);
  const name = "keys";
  const repo = await author.trpc("repos.create", { name });
  const { url } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "src/a.ts": lines("a", 3), "README.md": "# Keys\n" },
    branch: "more",
    changes: {
      "src/a.ts": lines("a", 8),
      "src/b.ts": lines("b", 6),
      "lib/c.ts": lines("c", 4),
      "README.md": "# Keys\n\nMore words.\n",
      "docs/guide.md": "# Guide\n\nRead me.\n",
    },
    title: "Several files",
  });
  filesUrl = `${url}/files`;
});

/** Focus back on the page's body (where shortcuts are typed). */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

/** aria-label of the focused element. */
const focused = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? null);

test("desktop: review dialog, roving line stops, the shortcut sheet, j/k, tree filters, t", async () => {
  const page = author.page;
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(filesUrl);
  await diffReady(page);
  await expect(page.getByTestId("diff-file")).toHaveCount(5);

  // "Review changes" opens with the summary box focused (a space does not close it)
  await page.getByTestId("review-changes").click();
  await expect(page.getByTestId("review-body")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(page.getByTestId("review-dialog")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("review-dialog")).toHaveCount(0);

  // one tab stop per file; Up/Down move within the file; Tab leaves it
  await expect(page.locator("[data-testid='comment-line'][tabindex='0']")).toHaveCount(5);
  const first = page.locator("[data-testid='comment-line'][tabindex='0']").first();
  await first.focus();
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.line)).toBe("2");
  await page.keyboard.press("ArrowUp");
  await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement).dataset.line)).toBe("1");
  let left = false;
  for (let i = 0; i < 2 && !left; i++) {
    await page.keyboard.press("Tab");
    left = await page.evaluate(() => document.activeElement?.getAttribute("data-testid") !== "comment-line");
  }
  expect(left, "Tab leaves the file's lines in 1–2 presses").toBe(true);

  // `?`: every key once (`c` is the focused line's comment here, not also "New issue")
  await blur(page);
  await page.keyboard.press("?");
  const rows = page.getByTestId("shortcut-sheet").getByTestId("shortcut-row");
  await expect(rows.first()).toBeVisible();
  const keys = await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-keys")));
  expect(keys.filter((k) => k === "c")).toHaveLength(1);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys).toEqual(expect.arrayContaining(["f", "t", "j", "k"]));
  await page.keyboard.press("Escape");

  // j/k move focus to the next / previous file's header
  await blur(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.keyboard.press("j");
  await expect.poll(() => focused(page)).toMatch(/^Collapse /);
  const afterJ = await focused(page);
  await page.keyboard.press("j");
  await expect.poll(() => focused(page)).not.toBe(afterJ);
  await page.keyboard.press("k");
  await expect.poll(() => focused(page)).toBe(afterJ);

  // the tree: its count, the filter box, the file types
  const panel = page.getByTestId("diff-file-panel").first();
  const items = panel.getByTestId("file-tree-item");
  await expect(panel.getByTestId("file-tree-count")).toHaveText("5 files");
  await panel.getByTestId("file-filter").fill("b.ts");
  await expect(items).toHaveCount(1);
  await panel.getByTestId("file-filter").fill("");
  await expect(items).toHaveCount(5);
  await expect(panel.locator("[data-ext='.ts']").locator("..")).toHaveText(".ts (3)");
  await panel.locator("[data-ext='.md']").check();
  await expect(items).toHaveCount(2);
  await expect(panel.getByTestId("file-tree-count")).toHaveText("2 of 5 files");
  await panel.locator("[data-ext='.md']").uncheck();

  // `t`: jump to a changed file
  await blur(page);
  await page.keyboard.press("t");
  await page.getByTestId("changed-file-finder-input").fill("guide");
  await expect(page.getByTestId("changed-file-finder-result")).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("changed-file-finder")).toHaveCount(0);
  const guide = page.locator("[data-testid='diff-file'][data-path='docs/guide.md']");
  await expect(guide).toBeInViewport();
  await expect.poll(() => focused(page)).toBe("Collapse docs/guide.md");
});

test("phone: the pull request and repository tab rows scroll, the current tab in view", async () => {
  const page = author.page;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(filesUrl);
  await diffReady(page);
  for (const row of ["pull-tabs", "repo-tabs"]) {
    const nav = page.getByTestId(row);
    const current = nav.locator("[aria-current='page']");
    // the current tab is scrolled into view, whole
    await expect(current).toBeInViewport({ ratio: 1 });
    // every label can be scrolled to and is never cut
    for (const tab of await nav.locator("a").all()) {
      await tab.scrollIntoViewIfNeeded();
      await expect(tab).toBeInViewport({ ratio: 0.95 });
      expect(await tab.evaluate((a) => a.scrollWidth <= a.clientWidth)).toBe(true);
    }
  }
  // a row wider than the screen shows a fade toward its hidden side
  const repoTabs = page.getByTestId("repo-tabs");
  if (await repoTabs.evaluate((n) => n.scrollWidth > n.clientWidth)) {
    await repoTabs.evaluate((n) => (n.scrollLeft = 0));
    await expect(repoTabs.locator("..").getByTestId("scroll-fade-end")).toHaveClass(/opacity-100/);
  }
});
