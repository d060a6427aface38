/**
 * The AI review (docs/ai.md "AI review"): a pull request that adds a console.log gets reviewed by
 * the local engine after it is opened — the panel on the Conversation tab fills in (status, engine,
 * summary, findings), the finding is an inline thread of the bot in Files changed, and the author
 * resolves it. "Re-run" starts another run. The panel passes axe at phone width in the dark theme.
 */
import { test, expect } from "./fixtures";
import { AxeBuilder } from "./axe";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("the AI review panel fills in, its finding is an inline thread in Files changed, and it can be resolved", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const author = await newUser(browser, baseURL!, "aira", stamp);
  const name = "aireview";
  const repo = await author.trpc("repos.create", { name });
  const { pr } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "app.ts": ["export const a = 1;", ""].join("\n") },
    branch: "debugging",
    changes: { "app.ts": ["export const a = 1;", "console.log(a);", ""].join("\n") },
    title: "Log a",
  });
  const page = author.page;
  await page.goto(`/${author.username}/${name}/pulls/${pr.number}`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);

  const panel = page.getByTestId("ai-review-panel");
  await expect(panel.getByTestId("ai-review")).toHaveAttribute("data-status", "done", { timeout: 30_000 });
  await expect(panel.getByTestId("ai-review-engine")).toHaveText("by local engine");
  await expect(panel.getByTestId("ai-review-state")).toHaveText("Commented");
  await expect(panel.getByTestId("ai-review-summary")).toContainText("debug statement");
  // the summary is Markdown: its findings are a list, not raw "- " lines
  await expect(panel.getByTestId("ai-review-summary").locator("li").first()).toContainText("debug statement");
  await expect(panel.getByTestId("ai-review-summary")).not.toContainText("- 1 ×");
  await expect(panel.getByTestId("ai-review-findings")).toContainText("app.ts:2");

  // Re-run: a new run goes through the states again and ends done
  await panel.getByTestId("ai-review-rerun").click();
  await expect(panel.getByTestId("ai-review")).toHaveAttribute("data-status", "done", { timeout: 30_000 });

  // the panel at phone width in the dark theme: fits and passes axe
  await page.context().addCookies([{ name: "svc-theme", value: "dark", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(panel.getByTestId("ai-review")).toHaveAttribute("data-status", "done");
  // boundingBox is null while the reloaded page re-renders the panel: poll until it is laid out
  await expect(panel).toBeVisible();
  await expect
    .poll(async () => {
      const box = await panel.boundingBox();
      return box ? box.x + box.width : Number.POSITIVE_INFINITY;
    })
    .toBeLessThanOrEqual(390);
  const axe = await new AxeBuilder({ page })
    .include("[data-testid=ai-review-panel]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  // the finding is an inline thread of the bot in Files changed; the author resolves it
  await panel.getByTestId("ai-review-findings-link").click();
  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}/files$`));
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  const thread = page.getByTestId("review-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread).toContainText("svc-ai");
  await expect(thread.getByTestId("bot-badge").first()).toHaveText("bot");
  await expect(thread).toContainText("console logging");
  await thread.getByTestId("thread-resolve").click();
  await expect(thread).toHaveAttribute("data-resolved", "true");
});
