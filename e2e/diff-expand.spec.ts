/**
 * Expanding unchanged lines on Files changed (docs/pulls.md "Expand unchanged lines"): a pull
 * request whose file has two hunks far apart. ↓ and ↑ show 20 lines under / above the hunks,
 * numbered on both sides (the first change adds a line, so old = new − 1 between the hunks),
 * without a comment button, the focus staying on the expander; "Expand all" shows the rest and drops the expanders; at phone width
 * the expander works and nothing scrolls sideways.
 */
import { test, expect } from "./fixtures";
import { type BrowserContext, type Page } from "@playwright/test";
import { diffReady } from "./diff-ready";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);
const base = Array.from({ length: 200 }, (_, i) => `export const v${i + 1} = ${i + 1}; // line ${i + 1}`);
// line 50 becomes two lines, line 150 changes: hunks at new 47–54 and 148–154 of 201 lines
const head = [
  ...base.slice(0, 49),
  "export const v50a = 1;",
  "export const v50b = 2;",
  ...base.slice(50, 149),
  "export const v150 = 0;",
  ...base.slice(150),
];

let url = "";
let storage: Awaited<ReturnType<BrowserContext["storageState"]>>;

const line = (page: Page, n: number) => page.locator(`[data-testid="expanded-line"][data-new-line="${n}"]`);
const expander = (page: Page, k: number) => page.getByTestId("diff-expander").nth(k);

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "expand", stamp);
  const repo = await owner.trpc("repos.create", { name: "expand" });
  ({ url } = await openPullRequest(owner, {
    repoId: repo.id as string,
    name: "expand",
    base: { "big.ts": base.join("\n") + "\n" },
    branch: "two-changes",
    changes: { "big.ts": head.join("\n") + "\n" },
    title: "Two changes far apart",
  }));
  storage = await owner.context.storageState();
  await owner.context.close();
});

test("expand 20 lines down and up between hunks, then Expand all", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storage, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${url}/files`);
  await diffReady(page);
  await expect(page.getByTestId("diff-expander")).toHaveCount(3);
  await expect(expander(page, 0)).toContainText("46 unchanged lines (1–46)");
  await expect(expander(page, 1)).toContainText("93 unchanged lines (55–147)");
  await expect(expander(page, 2)).toContainText("Unchanged lines from 155 to the end");

  // by keyboard: the expander row, drawn anew under the new lines, keeps the focus
  await expander(page, 1).getByRole("button", { name: "Expand 20 lines below" }).focus();
  await page.keyboard.press("Enter");
  await expect(line(page, 55)).toBeVisible();
  await expect(expander(page, 1).getByRole("button", { name: "Expand 20 lines below" })).toBeFocused();
  await expect(line(page, 55)).toHaveText(/^5455 export const v54 = 54; \/\/ line 54$/);
  await expect(line(page, 74)).toContainText("line 73");
  await expect(line(page, 75)).toHaveCount(0);
  await expect(expander(page, 1)).toContainText("73 unchanged lines (75–147)");
  // expanded lines are not commentable (comments belong to lines inside the diff's hunks)
  await expect(line(page, 55).getByRole("button")).toHaveCount(0);

  await expander(page, 1).getByRole("button", { name: "Expand 20 lines above" }).click();
  await expect(line(page, 147)).toHaveText(/^146147 export const v146 = 146; \/\/ line 146$/);
  await expect(line(page, 128)).toBeVisible();
  await expect(expander(page, 1)).toContainText("53 unchanged lines (75–127)");

  await page.getByTestId("expand-all").click();
  await expect(page.getByTestId("expand-all")).toHaveCount(0);
  await expect(line(page, 1)).toHaveText(/^11 export const v1 = 1; \/\/ line 1$/);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect(line(page, 201)).toHaveText(/^200201 export const v200 = 200; \/\/ line 200$/);
  await expect(page.getByTestId("diff-expander")).toHaveCount(0);
  await context.close();
});

test("at phone width the expander works and nothing scrolls sideways", async ({ browser }) => {
  const context = await browser.newContext({ storageState: storage, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${url}/files`);
  // a click on the server-drawn button before hydration does nothing (CI at load saw it)
  await diffReady(page);
  await expander(page, 0).getByRole("button", { name: "Expand 20 lines above" }).click();
  await expect(line(page, 27)).toHaveText(/^2727 export const v27 = 27; \/\/ line 27$/);
  await expect(line(page, 46)).toBeVisible();
  await expect(expander(page, 0)).toContainText("26 unchanged lines (1–26)");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await context.close();
});
