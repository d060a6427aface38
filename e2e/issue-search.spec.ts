/**
 * The GitHub-style issue list in a real browser (docs/ui.md "Issues"; docs/issues.md "Search"):
 * empty states (no issues at all, no closed issues, nothing matching), the search box with
 * qualifiers and full-text search, the filter and sort menus kept in sync with the box and the URL,
 * "closed … by" on closed rows, query errors shown (never a 500, FTS syntax included), and editable
 * saved views (refine, save back, save as new, delete). One user is signed up (sign-ups are
 * rate-limited); data through tRPC.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { signUpIn } from "./session";

const owner = `srch${Date.now().toString(36)}`;
const issues = `/${owner}/finder/issues`;

async function trpc(page: Page, path: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${path}`, { headers: { origin: test.info().project.use.baseURL! }, data });
  const body = await r.json();
  expect(r.status(), JSON.stringify(body)).toBe(200);
  return body.result.data;
}

/** Types `q` into the search box and runs it. */
async function search(page: Page, q: string) {
  await page.getByTestId("issue-search").fill(q);
  await page.getByTestId("issue-search").press("Enter");
  await expect(page).toHaveURL((url) => url.searchParams.get("q") === q);
}

/** Waits until the list shows exactly these issue numbers, in this order. */
async function expectRows(page: Page, numbers: number[]) {
  await expect
    .poll(() => page.getByTestId("issue-row").evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-number")))))
    .toEqual(numbers);
}

test("issue search: empty states, qualifiers, full text, menus, sort, closed by, editable views", async ({ page }) => {
  await signUpIn(page.context(), owner);
  const repo = await trpc(page, "repos.create", { name: "finder" });

  // --- no issues at all
  await page.goto(issues);
  await expect(page.getByTestId("no-issues")).toHaveAttribute("data-kind", "no-issues");
  await expect(page.getByTestId("empty-new-issue")).toHaveText("Create the first issue");

  await trpc(page, "issues.createLabel", { repoId: repo.id, name: "bug", color: "#d73a4a" });
  await trpc(page, "issues.createLabel", { repoId: repo.id, name: "good first issue", color: "#7057ff" });
  await trpc(page, "issues.create", {
    repoId: repo.id,
    title: "Crash on startup",
    body: "A segfault in the loader",
    labels: ["bug"],
    priority: "high",
  });
  await trpc(page, "issues.create", { repoId: repo.id, title: "Dark mode", labels: ["good first issue"], priority: "low" });
  await trpc(page, "issues.create", { repoId: repo.id, title: "Crash when saving", labels: ["bug"] });

  // --- no closed issues yet
  await page.goto(`${issues}?q=is%3Aclosed`);
  await expect(page.getByTestId("no-issues")).toHaveAttribute("data-kind", "no-closed");
  await trpc(page, "issues.close", { repoId: repo.id, number: 3 });

  // --- full text over title and body (stemmed), with qualifiers
  await page.goto(issues);
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open");
  // `/` focuses the search box from anywhere on the page (the site-wide shortcut)
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await page.locator("body").click({ position: { x: 5, y: 300 } });
  await page.keyboard.press("/");
  await expect(page.getByTestId("issue-search")).toBeFocused();
  await search(page, "is:open segfaults");
  await expectRows(page, [1]);
  await search(page, "is:open crash");
  await expectRows(page, [1]);
  await expect(page.getByTestId("count-closed")).toHaveText("1");
  // the Closed tab keeps the words; the closed row says who closed it
  await page.getByTestId("state-closed").click();
  await expect(page.getByTestId("issue-search")).toHaveValue("is:closed crash");
  await expectRows(page, [3]);
  await expect(page.getByTestId("row-closed")).toContainText("was closed");
  await expect(page.getByTestId("row-closed-by")).toHaveText(owner);

  // --- nothing matches: its own empty state and Clear filters
  await search(page, "is:open zebra");
  await expect(page.getByTestId("no-issues")).toHaveAttribute("data-kind", "no-match");
  await page.getByTestId("empty-clear-filters").click();
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open");
  await expectRows(page, [2, 1]);

  // --- FTS syntax is just text; a bad qualifier value is explained, never a server error
  await search(page, 'is:open NEAR( "crash* -x');
  await expect(page.getByTestId("no-issues")).toBeVisible();
  await page.getByTestId("issue-search").fill("priority:huge");
  await expect(page.getByTestId("issue-search-errors")).toContainText("priority:huge");
  await page.getByTestId("issue-search").press("Enter");
  await expect(page.getByTestId("search-error")).toBeVisible();

  // --- menus write the box (and the URL); the box drives the menus
  await page.goto(issues);
  await page.getByTestId("sort-menu").click();
  await page.getByTestId("sort-option").filter({ hasText: "Priority" }).click();
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open sort:priority");
  await expectRows(page, [1, 2]);
  await page.getByTestId("filter-authors").click();
  await page.getByTestId("filter-authors-menu").getByTestId("filter-option").filter({ hasText: "@me" }).click();
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open author:@me sort:priority");
  await page.keyboard.press("Escape");
  await search(page, 'is:open label:"good first issue"');
  await page.getByTestId("filter-labels").click();
  await expect(page.getByTestId("filter-labels-menu").locator('[data-option="good first issue"] svg')).toBeVisible(); // checked
  await page.keyboard.press("Escape");
  await expectRows(page, [2]);

  // --- editable saved views
  await search(page, "is:open label:bug");
  await page.getByTestId("save-view").click();
  await page.getByTestId("view-name-input").fill("Bugs");
  await page.getByTestId("view-save-submit").click();
  await expect(page.getByTestId("view-name")).toHaveText("Bugs");
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open label:bug");
  await expect(page.getByTestId("view-modified")).toHaveCount(0);
  // refine it: the view's filters stay visible and editable
  await page.getByTestId("filter-priorities").click();
  await page.getByTestId("filter-priorities-menu").getByTestId("filter-option").filter({ hasText: "High" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open priority:high label:bug");
  await expect(page.getByTestId("view-modified")).toBeVisible();
  await page.getByTestId("view-update").click();
  await expect(page.getByTestId("view-modified")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open priority:high label:bug");
  // save as a new view, then delete it
  await search(page, "is:open label:bug crash");
  await page.getByTestId("view-save-as").click();
  await page.getByTestId("view-name-input").fill("Crashes");
  await page.getByTestId("view-save-submit").click();
  await expect(page.getByTestId("view-name")).toHaveText("Crashes");
  await expect(page.getByTestId("saved-view")).toHaveText(["Bugs", "Crashes"]);
  await page.getByTestId("delete-view").click();
  await page.getByTestId("confirm-dialog").getByTestId("confirm-button").click();
  await expect(page.getByTestId("saved-view")).toHaveText(["Bugs"]);
});
