/**
 * Notifications in the browser (docs/notifications.md): the top bar's bell counts a comment by
 * another user live, without a reload (GET /api/notifications/events), and the /notifications
 * page triages with GitHub's keys — `j`/`k` move, `e` done, `Shift+U` unread, Enter opens the
 * thread at the comment — with no serious axe violations.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("the bell counts a comment live; the notifications page triages with j/k/e/Shift+U/Enter", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "bell", stamp);
  const peer = await newUser(browser, baseURL!, "ring", stamp);
  const repo = await owner.trpc("repos.create", { name: "bells", isPrivate: false });
  const issue = await owner.trpc("issues.create", { repoId: repo.id, title: "The bell issue" });

  const page = owner.page;
  await page.goto(`/${owner.username}/bells`);
  const bell = page.getByTestId("nav-notifications");
  await expect(bell).toHaveAttribute("data-live", "on");
  await expect(bell).toHaveAttribute("data-count", "0");

  // another user comments on the owner's issue: the count rises without a reload
  await peer.trpc("issues.addComment", { repoId: repo.id, number: issue.number, body: "A comment from a peer" });
  await expect(bell).toHaveAttribute("data-count", "1", { timeout: 15_000 });
  await expect(page.getByTestId("nav-notifications-count")).toHaveText("1");
  // and a mention in a new issue
  const mention = await peer.trpc("issues.create", { repoId: repo.id, title: "Mentioning the owner", body: `hello @${owner.username}` });
  await expect(bell).toHaveAttribute("data-count", "2", { timeout: 15_000 });

  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  const rows = page.getByTestId("notification-row");
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("notifications-group")).toHaveCount(1);
  await noAxeViolations(page, "notifications page");

  // newest first: the mention, then the comment
  await expect(rows.nth(0)).toContainText(`#${mention.number}`);
  await expect(rows.nth(0)).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("j");
  await expect(rows.nth(1)).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("k");
  await expect(rows.nth(0)).toHaveAttribute("data-selected", "true");

  // e: the mention is done — gone from the list, one left in the bell
  await page.keyboard.press("e");
  await expect(rows).toHaveCount(1);
  await expect(rows.nth(0)).toContainText(`#${issue.number}`);
  await expect(bell).toHaveAttribute("data-count", "1");

  // read, then Shift+U: unread again
  await page.getByTestId("notifications-tab-all").click();
  await expect(page.getByTestId("notifications-page")).toHaveAttribute("data-filter", "all");
  await page.getByRole("button", { name: "Mark all as read" }).click();
  await expect(rows.nth(0)).toHaveAttribute("data-unread", "false");
  await expect(bell).toHaveAttribute("data-count", "0");
  await page.keyboard.press("Shift+U");
  await expect(rows.nth(0)).toHaveAttribute("data-unread", "true");
  await expect(bell).toHaveAttribute("data-count", "1");

  // Enter opens the selected thread at the comment
  await page.keyboard.press("j"); // focus moves to the (only) row's link
  await page.getByTestId("notification-link").first().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/issues/${issue.number}#comment-`));
  await expect(page.getByTestId("comment").and(page.locator("[id^='comment-']"))).toBeVisible();

  await owner.context.close();
  await peer.context.close();
});
