/**
 * The inbox (docs/pulls.md "The inbox page"): an author opens a pull request and requests a review;
 * the reviewer's top bar counts it ("Inbox 1 awaiting your review", its visible text plus hidden
 * words: axe's label-content-name-mismatch passes), /inbox lists it under
 * Awaiting review with its repository, the repository filter keeps it, the author sees it under
 * Your pull requests; once the reviewer approves, it leaves Awaiting review (and the count goes)
 * and shows under Participated, and the author's Your pull requests keeps it under Ready to merge. Also: `g n` goes to the inbox, signed out /inbox asks to sign in.
 *
 * Two users (sign-ups are rate-limited per address).
 */
import { AxeBuilder } from "./axe";
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

async function hydrated(page: Page) {
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
}

test("signed out, /inbox asks to sign in and comes back", async ({ page }) => {
  await page.goto("/inbox?tab=participated&state=all");
  await expect(page).toHaveURL(/\/signin\?callbackUrl=/);
  expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/inbox?tab=participated&state=all");
});

test("a requested review shows in the reviewer's inbox and top bar, and leaves when they approve", async ({ browser, baseURL }) => {
  const author = await newUser(browser, baseURL!, "inboxa", stamp);
  const reviewer = await newUser(browser, baseURL!, "inboxr", stamp);
  const repo = await author.trpc("repos.create", { name: "inboxed", isPrivate: true });
  await author.trpc("repos.addCollaborator", { repoId: repo.id, username: reviewer.username, role: "write" });
  const { pr, headSha: head } = await openPullRequest(author, {
    repoId: repo.id,
    name: "inboxed",
    base: { "README.md": "# inboxed\n" },
    branch: "topic",
    changes: { "a.txt": "a\n" },
    title: "Please review the topic",
    message: "Add a",
  });
  const fullName = `${author.username}/inboxed`;

  // nothing requested yet: the reviewer's top bar has no count, the inbox says so
  const rp = reviewer.page;
  // the page's clock runs as usual, and the test can move it forward (below)
  await rp.clock.install();
  await rp.goto("/inbox");
  await hydrated(rp);
  await expect(rp.getByTestId("nav-inbox")).toHaveAccessibleName("Inbox");
  await expect(rp.getByTestId("nav-inbox-count")).toHaveCount(0);
  await expect(rp.getByTestId("inbox-empty")).toContainText("No pull requests are awaiting your review.");
  await expect(rp.getByTestId("inbox-count-review")).toHaveText("0");

  // the author requests a review from the reviewer
  const profile = await (
    await reviewer.context.request.get(
      `/api/trpc/users.profile?input=${encodeURIComponent(JSON.stringify({ username: reviewer.username }))}`,
    )
  ).json();
  await author.trpc("pulls.requestReview", { prId: pr.id, reviewerId: profile.result.data.id });

  // the reviewer's top bar counts it (another page, more than 5 s later: the count is asked again);
  // the page's clock jumps those 5 s, as when a laptop's lid is opened again
  await rp.clock.fastForward(5_500);
  await rp.getByRole("link", { name: "Repositories" }).click();
  await expect(rp).toHaveURL(/\/$/);
  const navLink = rp.getByRole("link", { name: "Inbox 1 awaiting your review", exact: true });
  await expect(navLink).toBeVisible();
  await expect(rp.getByTestId("nav-inbox-count")).toHaveText("1");
  // its name is its visible content ("Inbox", a space, "1") plus hidden words (WCAG 2.5.3): no aria-label that leaves the
  // visible text out (axe's label-content-name-mismatch flagged "Inbox1"; the rule is experimental in axe, so named)
  const labelInName = await new AxeBuilder({ page: rp })
    .withRules(["label-content-name-mismatch"])
    .include('[data-testid="nav-inbox"]')
    .analyze();
  expect(labelInName.violations).toEqual([]);
  // and a full load renders it on the server; at phone width the top bar still fits, badge and all
  await rp.reload();
  await hydrated(rp);
  await expect(navLink).toBeVisible();
  await rp.setViewportSize({ width: 390, height: 844 });
  await expect(rp.getByTestId("nav-inbox-count")).toBeVisible();
  await expect(rp.getByTestId("user-menu")).toBeInViewport({ ratio: 1 });
  expect(await rp.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await rp.setViewportSize({ width: 1280, height: 900 });

  // /inbox lists it under Awaiting review with its repository
  await navLink.click();
  await expect(rp).toHaveURL(/\/inbox$/);
  await expect(rp.getByTestId("inbox-tab-review")).toHaveAttribute("aria-current", "page");
  await expect(rp.getByTestId("inbox-count-review")).toHaveText("1");
  const row = rp.getByTestId("inbox-list").getByTestId("pull-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("pull-title")).toHaveText("Please review the topic");
  await expect(row.getByTestId("pull-repo")).toHaveText(fullName);
  await expect(row.getByTestId("pull-title")).toHaveAttribute("href", `/${fullName}/pulls/${pr.number}`);

  // the repository filter: picking the repository keeps the row and puts it in the URL
  await hydrated(rp);
  await rp.getByTestId("inbox-repo-filter").click();
  await rp.getByTestId("inbox-repo-filter-option").filter({ hasText: fullName }).click();
  await expect(rp).toHaveURL(new RegExp(`/inbox\\?repo=${encodeURIComponent(fullName)}$`));
  await expect(rp.getByTestId("inbox-repo-filter")).toContainText(fullName);
  await expect(rp.getByTestId("inbox-list").getByTestId("pull-row")).toHaveCount(1);

  // the author sees it under Your pull requests (a review is pending); nothing awaits their review
  const ap = author.page;
  await ap.goto("/inbox?tab=mine");
  await hydrated(ap);
  await expect(ap.getByTestId("inbox-tab-mine")).toHaveAttribute("aria-current", "page");
  await expect(ap.getByTestId("inbox-list").getByTestId("pull-row")).toHaveCount(1);
  await expect(ap.getByTestId("inbox-count-review")).toHaveText("0");
  await expect(ap.getByTestId("nav-inbox-count")).toHaveCount(0);

  // the reviewer approves: it leaves Awaiting review and the top bar's count goes
  await reviewer.trpc("pulls.addReview", { prId: pr.id, state: "approved", commitSha: head });
  await rp.goto("/inbox");
  await hydrated(rp);
  await expect(rp.getByTestId("inbox-empty")).toBeVisible();
  await expect(rp.getByTestId("inbox-count-review")).toHaveText("0");
  await expect(rp.getByTestId("nav-inbox-count")).toHaveCount(0);
  await expect(rp.getByTestId("nav-inbox")).toHaveAccessibleName("Inbox");
  // it is now one the reviewer took part in; closed ones are a filter away
  await rp.getByTestId("inbox-tab-participated").click();
  await expect(rp).toHaveURL(/\/inbox\?tab=participated$/);
  await expect(rp.getByTestId("inbox-list").getByTestId("pull-row").getByTestId("pull-title")).toHaveText("Please review the topic");
  await rp.getByTestId("inbox-state-closed").click();
  await expect(rp).toHaveURL(/\/inbox\?tab=participated&state=closed$/);
  await expect(rp.getByTestId("inbox-empty")).toContainText("No closed pull requests you took part in.");

  // approved and no pending request: the author's pull request is ready to merge, kept on Your pull requests in that group
  await ap.reload();
  await expect(ap.getByTestId("inbox-count-mine")).toHaveText("1");
  await expect(ap.getByTestId("inbox-ready").getByTestId("pull-title")).toHaveText("Please review the topic");
  await expect(ap.getByRole("heading", { name: /Ready to merge/ })).toBeVisible();
  await expect(ap.getByTestId("inbox-awaiting")).toContainText("None.");
  await expect(ap.getByTestId("inbox-empty")).toHaveCount(0);

  // g n goes to the inbox from any page
  await rp.goto("/");
  await hydrated(rp);
  await rp.keyboard.press("g");
  await rp.keyboard.press("n");
  await expect(rp).toHaveURL(/\/inbox$/);
  await expect(rp.getByTestId("inbox-page")).toBeVisible();

  await author.context.close();
  await reviewer.context.close();
});
