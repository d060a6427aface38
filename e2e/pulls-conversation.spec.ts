/**
 * The Conversation tab (docs/pulls.md "Pages"): the author requests a review in the sidebar picker; the
 * reviewer approves in their browser and the author's open page shows "approved" in the timeline
 * and the reviewer's state icon without a reload (live updates); the author adds a label and a
 * general comment; at phone width the page does not scroll sideways.
 */
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("request a review, see the approval live, add a label and a comment", async ({ browser, baseURL }) => {
  const author = await newUser(browser, baseURL!, "conv", stamp);
  const reviewer = await newUser(browser, baseURL!, "rev", stamp);
  const repo = await author.trpc("repos.create", { name: "conv" });
  await author.trpc("repos.addCollaborator", { repoId: repo.id, username: reviewer.username, role: "write" });
  await author.trpc("issues.createLabel", { repoId: repo.id, name: "needs-docs", color: "#0075ca" });
  const { pr, headSha } = await openPullRequest(author, {
    repoId: repo.id,
    name: "conv",
    base: { "README.md": "# conv\n" },
    branch: "topic",
    changes: { "a.txt": "a\n" },
    title: "Conversation topic",
    message: "Add a",
  });

  const page = author.page;
  await page.goto(`/${author.username}/conv/pulls/${pr.number}`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);

  // request a review from the second user in the sidebar picker: shown at once as pending
  await page.getByTestId("reviewers-picker").click();
  await page.getByTestId(`reviewer-option-${reviewer.username}`).click();
  await page.keyboard.press("Escape");
  const row = page.getByTestId("pull-reviewer").and(page.locator(`[data-username='${reviewer.username}']`));
  await expect(row).toHaveAttribute("data-state", "pending");
  await expect(page.getByTestId("pull-event").and(page.locator("[data-type='review_requested']"))).toContainText(
    `requested a review from ${reviewer.username}`,
  );

  // the reviewer approves from their browser; the author's page follows without a reload
  await reviewer.page.goto(`/${author.username}/conv/pulls/${pr.number}`);
  await expect(reviewer.page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await reviewer.trpc("pulls.addReview", { prId: pr.id, state: "approved", body: "Looks good to me", commitSha: headSha });
  const review = page.getByTestId("pull-review");
  await expect(review).toHaveAttribute("data-state", "approved", { timeout: 10_000 });
  await expect(review).toContainText(`${reviewer.username} approved these changes`);
  await expect(review).toContainText("Looks good to me");
  await expect(review).toHaveAttribute("data-stale", "false");
  await expect(row).toHaveAttribute("data-state", "approved");
  await expect(row.getByRole("img", { name: "Approved" })).toBeVisible();

  // a label from the picker: chip at once, and the timeline's event after the refresh
  await page.getByTestId("labels-picker").click();
  await page.getByTestId("label-option").filter({ hasText: "needs-docs" }).click();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("sidebar-labels").getByTestId("label-chip")).toHaveText("needs-docs");
  await expect(page.getByTestId("pull-event").and(page.locator("[data-type='labeled']"))).toContainText("added the needs-docs label");

  // a general comment, previewed first; the reviewer's page gets it live too
  await page.getByTestId("pull-comment-input").fill("Thanks, **merging** soon");
  await page.getByTestId("pull-comment-input-preview-tab").click();
  await expect(page.getByTestId("pull-comment-input-preview").locator("strong")).toHaveText("merging");
  await page.getByTestId("pull-comment-submit").click();
  const thread = page.getByTestId("pull-thread").and(page.locator("[data-inline='false']"));
  await expect(thread).toContainText("Thanks, merging soon");
  await expect(reviewer.page.getByTestId("pull-thread")).toContainText("Thanks, merging soon", { timeout: 10_000 });

  // the reload shows what the server stored, in order: request, review, label, comment
  await page.reload();
  const kinds = await page
    .getByTestId("pull-timeline")
    .locator(":scope > li")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-type") ?? e.getAttribute("data-testid")));
  expect(kinds.filter((k) => k !== "opened")).toEqual(["review_requested", "pull-review", "labeled", "pull-thread"]);

  // phone width: the sidebar comes before the timeline and nothing scrolls sideways
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const [side, timeline] = await Promise.all([
    page.getByTestId("pull-sidebar").boundingBox(),
    page.getByTestId("pull-timeline").boundingBox(),
  ]);
  expect(side!.y).toBeLessThan(timeline!.y);
});
