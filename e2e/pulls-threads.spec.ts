/**
 * Review threads on both tabs (docs/pulls.md "Threads in the UI (both tabs)"): a write collaborator
 * comments on a line in Files changed; the pull request's author replies and resolves from the
 * Conversation tab (the same thread component); the comment's author edits it and deletes the
 * other's reply (write permission) from the "…" menu; a read-only user sees no menu on others'
 * comments but Edit on their own reply; deleting a root with a reply keeps the reply readable. The
 * Files tab shows each result. The Conversation page with an open thread, its menu and its editor
 * passes axe at phone width, light and dark, without sideways scroll.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

async function ready(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
}

/** The inline thread of the Conversation tab. */
const convThread = (page: Page) => page.getByTestId("pull-thread").and(page.locator("[data-inline='true']")).getByTestId("review-thread");
const comment = (scope: ReturnType<Page["getByTestId"]>, text: string) => scope.getByTestId("review-comment").filter({ hasText: text });

test("threads on the Conversation tab: reply, resolve, edit, delete; who sees the menu", async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const author = await newUser(browser, baseURL!, "thauth", stamp);
  const reviewer = await newUser(browser, baseURL!, "threv", stamp);
  const reader = await newUser(browser, baseURL!, "thread", stamp);
  const name = "threads";
  const repo = await author.trpc("repos.create", { name });
  await author.trpc("repos.addCollaborator", { repoId: repo.id, username: reviewer.username, role: "write" });
  const { url } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "app.ts": ["const a = 1;", "const b = 2;", "const c = 3;", ""].join("\n") },
    branch: "more",
    changes: { "app.ts": ["const a = 1;", "const b = 2;", "const c = 3;", "const d = 4;", ""].join("\n") },
    title: "Add d",
  });

  // the reviewer comments on line 4 in Files changed
  const rp = reviewer.page;
  await ready(rp, `${url}/files`);
  await rp.getByRole("button", { name: "Comment on line 4", exact: true }).click();
  await rp.getByTestId("comment-body").fill("Is d needed?");
  await rp.getByTestId("add-single-comment").click();
  const filesThread = rp.getByTestId("review-thread");
  await expect(filesThread).toContainText("Is d needed?");

  // the pull request's author replies and resolves from the Conversation tab
  const ap = author.page;
  await ready(ap, url);
  const at = convThread(ap);
  await expect(at.getByTestId("pull-thread-path")).toHaveText("app.ts");
  await expect(at.getByTestId("pull-thread-hunk")).toContainText("+const d = 4;");
  await at.getByTestId("thread-reply").click();
  await at.getByTestId("reply-body").fill("Yes, for the tests.");
  await at.getByTestId("reply-submit").click();
  await expect(at.getByTestId("review-comment")).toHaveCount(2);
  // the reviewer's open Files tab follows (live update)
  await expect(filesThread.getByTestId("review-comment")).toHaveCount(2, { timeout: 15_000 });
  await at.getByTestId("thread-resolve").click();
  await expect(at).toHaveAttribute("data-resolved", "true");
  await expect(at.getByTestId("review-comment")).toHaveCount(0); // resolved threads collapse here too
  await expect(at.getByTestId("thread-count")).toHaveText("2 comments");
  // the author may delete (write permission) but not edit the reviewer's words
  await at.getByTestId("thread-toggle").click();
  await comment(at, "Is d needed?").getByTestId("comment-menu").click();
  await expect(ap.getByTestId("comment-delete")).toBeVisible();
  await expect(ap.getByTestId("comment-edit")).toHaveCount(0);
  await ap.keyboard.press("Escape");

  // the reviewer edits their comment on the Conversation tab
  await ready(rp, url);
  const rt = convThread(rp);
  await expect(rt).toHaveAttribute("data-resolved", "true");
  await rt.getByTestId("thread-toggle").click();
  await comment(rt, "Is d needed?").getByTestId("comment-menu").click();
  await rp.getByTestId("comment-edit").click();
  const editor = rt.getByTestId("comment-edit-body");
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue("Is d needed?");
  await editor.fill("Is **d** really needed?");
  await rt.getByTestId("comment-edit-save").click();
  await expect(rt.getByTestId("review-comment-body").first().locator("strong")).toHaveText("d");
  await expect(rt.getByTestId("comment-edit-body")).toHaveCount(0);
  await expect(comment(rt, "really needed").getByTestId("comment-edited")).toContainText("edited");
  await expect(comment(rt, "Yes, for the tests.").getByTestId("comment-edited")).toHaveCount(0);

  // …and deletes the author's reply (write permission), after confirming
  await comment(rt, "Yes, for the tests.").getByTestId("comment-menu").click();
  await rp.getByTestId("comment-delete").click();
  const confirm = rp.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Delete this comment?");
  await confirm.getByTestId("confirm-button").click();
  await expect(confirm).toHaveCount(0);
  await expect(rt.getByTestId("review-comment")).toHaveCount(1);
  await expect(rt).not.toContainText("Yes, for the tests.");

  // the Files tab shows the result: resolved, the edited text, one comment
  await ready(ap, `${url}/files`);
  const aft = ap.getByTestId("review-thread");
  await expect(aft).toHaveAttribute("data-resolved", "true");
  await aft.getByTestId("thread-toggle").click();
  await expect(aft.getByTestId("review-comment")).toHaveCount(1);
  await expect(aft).toContainText("Is d really needed?");

  // a read-only user: no menu on the reviewer's comment, no Resolve; Edit on their own reply
  const xp = reader.page;
  await ready(xp, url);
  const xt = convThread(xp);
  await xt.getByTestId("thread-toggle").click();
  await expect(xt.getByTestId("review-comment")).toHaveCount(1);
  await expect(xt.getByTestId("comment-menu")).toHaveCount(0);
  await expect(xt.getByTestId("thread-unresolve")).toHaveCount(0);
  await xt.getByTestId("thread-reply").click();
  await xt.getByTestId("reply-body").fill("Curious too.");
  await xt.getByTestId("reply-submit").click();
  await expect(xt.getByTestId("review-comment")).toHaveCount(2);
  await expect(xt.getByTestId("comment-menu")).toHaveCount(1);
  await comment(xt, "Curious too.").getByTestId("comment-menu").click();
  await expect(xp.getByTestId("comment-edit")).toBeVisible();
  await expect(xp.getByTestId("comment-delete")).toBeVisible();
  await xp.keyboard.press("Escape");

  // the reviewer deletes their root: it stays as "deleted" and the reply stays readable
  await ready(rp, url);
  await convThread(rp).getByTestId("thread-toggle").click();
  await comment(convThread(rp), "Is d really needed?").getByTestId("comment-menu").click();
  await rp.getByTestId("comment-delete").click();
  await expect(confirm).toContainText("The replies stay readable");
  await confirm.getByTestId("confirm-button").click();
  await expect(convThread(rp).getByTestId("comment-deleted")).toHaveText("This comment was deleted.");
  await expect(convThread(rp)).toContainText("Curious too.");
  await ready(ap, `${url}/files`);
  await ap.getByTestId("review-thread").getByTestId("thread-toggle").click();
  await expect(ap.getByTestId("review-thread").getByTestId("comment-deleted")).toBeVisible();
  await expect(ap.getByTestId("review-thread")).toContainText("Curious too.");

  // phone width, light and dark: the Conversation page with the open thread, its menu and the editor
  await xp.setViewportSize({ width: 390, height: 844 });
  for (const theme of ["light", "dark"] as const) {
    await reader.context.addCookies([{ name: "svc-theme", value: theme, url: baseURL! }]);
    await xp.emulateMedia({ colorScheme: theme });
    await ready(xp, url);
    await expect(xp.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
    const t = convThread(xp);
    await t.getByTestId("thread-toggle").click();
    await comment(t, "Curious too.").getByTestId("comment-menu").click();
    await xp.getByTestId("comment-edit").click();
    await expect(t.getByTestId("comment-edit-body")).toHaveValue("Curious too.");
    const { scrollWidth, innerWidth } = await xp.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${theme}: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    const results = await new AxeBuilder({ page: xp }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(
      results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`),
      theme,
    ).toEqual([]);
    await t.getByTestId("comment-edit-cancel").click();
    await expect(t.getByTestId("comment-edit-body")).toHaveCount(0);
  }
  for (const u of [author, reviewer, reader]) await u.context.close();
});
