/**
 * The Files changed tab's revision picker (docs/ui.md "Revision picker") on a real force-pushed
 * pull request: a reviewer approves, the author rebases onto a moved main amending one line and
 * force-pushes; the reviewer sees "1 file changed since your review", the since-your-review range
 * shows only the amended line (not main's new file, not the unchanged part of the change), the
 * picker, the Conversation tab's banner (and the review's "on revision 1") and the timeline's
 * "Compare" link open the same range; after a third push, the from/to selects (keyboard and pointer)
 * open any two revisions, and "Single commit…" a commit's page; the pages pass axe at 1280 and 390 px.
 * A fourth push of 3,000 lines: the range's files past the first page load from
 * pulls.compareRevisionsPage as they scroll into view.
 */
import { noAxeViolations } from "./axe";
import { diffReady } from "./diff-ready";
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser, trpcQuery } from "./session";

const stamp = Date.now().toString(36);
const lines = (f: (i: number) => string) => Array.from({ length: 12 }, (_, i) => f(i + 1)).join("\n") + "\n";

test("changes since your last review after a rebase: banner, picker, timeline Compare link", async ({ browser, baseURL }) => {
  test.setTimeout(270_000);
  const author = await newUser(browser, baseURL!, "revauth", stamp);
  const reviewer = await newUser(browser, baseURL!, "revrev", stamp);
  const name = "revisions";
  const repo = (await author.trpc("repos.create", { name })) as { id: string };
  await author.trpc("repos.addCollaborator", { repoId: repo.id, username: reviewer.username, role: "write" });
  const { pr, clone, headSha, url } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "app.ts": lines((i) => `line ${i}`) },
    branch: "topic",
    changes: { "app.ts": lines((i) => (i === 2 ? "alpha" : i === 10 ? "omega" : `line ${i}`)) },
    title: "Name two lines",
  });
  await reviewer.trpc("pulls.addReview", { prId: pr.id, state: "approved", commitSha: headSha });

  // main moves on (a new file); the author rebases onto it, amends one line and force-pushes
  clone.git("checkout", "--quiet", "main");
  clone.commit({ "upstream.ts": "export const upstream = 1;\n" }, "Upstream work");
  clone.push("main");
  clone.git("checkout", "--quiet", "topic");
  clone.git("rebase", "--quiet", "main");
  clone.commit({ "app.ts": lines((i) => (i === 2 ? "alpha" : i === 10 ? "OMEGA" : `line ${i}`)) }, "Shout omega");
  clone.git("reset", "--soft", "--quiet", "HEAD~2");
  clone.git("commit", "--quiet", "-m", "Name two lines");
  clone.git("push", "--quiet", "--force", clone.remote, "topic");
  await expect.poll(async () => ((await trpcQuery(reviewer, "pulls.revisions", { prId: pr.id })) as unknown[]).length).toBe(2);

  const page = reviewer.page;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${url}/files`);
  const banner = page.getByTestId("since-review-banner");
  await expect(banner).toContainText("1 file changed since your review");
  // the default view is all changes: main's new file is not in the change, both lines are
  await expect(page.getByTestId("diff-viewer")).toContainText("alpha");

  // the picker's "Changes since your last review" → the range in the address, only the amended line
  await page.getByTestId("revision-select").click();
  await page.getByTestId("revision-select-option-1-2").click();
  await expect(page).toHaveURL(/\/files\?from=1&to=2$/);
  const notice = page.getByTestId("revision-notice");
  await expect(notice).toContainText("Showing changes between revisions 1 and 2");
  await expect(page.getByTestId("revision-select")).toContainText("Changes since your last review (revision 1 → 2)");
  const viewer = page.getByTestId("diff-viewer");
  await expect(viewer).toContainText("OMEGA");
  await expect(viewer).toContainText("omega");
  await expect(viewer).not.toContainText("alpha");
  await expect(viewer).not.toContainText("upstream");
  await expect(page.getByTestId("comment-line")).toHaveCount(0);
  await noAxeViolations(page, "interdiff at 1280");
  // the range survives a reload
  await page.reload();
  await expect(notice).toContainText("Showing changes between revisions 1 and 2");
  await expect(viewer).toContainText("OMEGA");
  await page.setViewportSize({ width: 390, height: 844 });
  await noAxeViolations(page, "interdiff at 390");

  // the banner's link opens the same range
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${url}/files`);
  await page.getByTestId("since-review-link").click();
  await expect(page).toHaveURL(/\/files\?from=1&to=2$/);
  await expect(notice).toBeVisible();

  // the Conversation tab: the review says its revision, and the since-your-review banner links to the range
  await page.goto(url);
  await expect(page.getByTestId("pull-review-revision")).toHaveText("on revision 1");
  await expect(banner).toContainText("1 file changed since your review");
  await expect(page.getByTestId("since-review-link")).toHaveAttribute("href", /\/files\?from=1&to=2$/);
  // the timeline's force-push event links to its range
  const compare = page.getByTestId("force-push-compare");
  await expect(compare).toHaveAttribute("href", /\/files\?from=1&to=2$/);
  await noAxeViolations(page, "conversation at 1280");
  await page.setViewportSize({ width: 390, height: 844 });
  await noAxeViolations(page, "conversation at 390");
  await compare.click();
  await expect(page).toHaveURL(/\/files\?from=1&to=2$/);
  await expect(page.getByTestId("revision-notice")).toContainText("Showing changes between revisions 1 and 2");
  await page.goto(`${url}/files`);
  await expect(banner).toBeVisible();
  await noAxeViolations(page, "files with banner at 390");

  // a third revision (a new file); the conversation banner now counts both changed files → 1..3
  clone.commit({ "extra.ts": "export const extra = 1;\n" }, "Extra file");
  clone.push("topic");
  await expect.poll(async () => ((await trpcQuery(reviewer, "pulls.revisions", { prId: pr.id })) as unknown[]).length).toBe(3);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url);
  await expect(banner).toContainText("2 files changed since your review");
  await page.getByTestId("since-review-link").click();
  await expect(page).toHaveURL(/\/files\?from=1&to=3$/);
  await expect(notice).toContainText("Showing changes between revisions 1 and 3");

  // any two revisions: the from/to selects start at the range shown; by keyboard, from → revision 2
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  const from = page.getByTestId("revision-from");
  await expect(from).toContainText("Revision 1");
  await expect(page.getByTestId("revision-to")).toContainText("Revision 3");
  await expect(page.getByTestId("revision-compare")).toBeDisabled();
  await from.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("revision-from-option-1")).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByTestId("revision-from-option-2")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(from).toContainText("Revision 2");
  await expect(from).toBeFocused();
  await page.getByTestId("revision-compare").click();
  await expect(page).toHaveURL(/\/files\?from=2&to=3$/);
  await expect(notice).toContainText("Showing changes between revisions 2 and 3");
  await expect(viewer).toContainText("extra");
  await expect(viewer).not.toContainText("OMEGA");
  await expect(page.getByTestId("revision-select")).toContainText("Revision 2 → 3");
  await noAxeViolations(page, "range control at 1280");
  // a pair no preset offers: from 3 to 1 (the change undone), by pointer
  await page.getByTestId("revision-from").click();
  await page.getByTestId("revision-from-option-3").click();
  await page.getByTestId("revision-to").click();
  await page.getByTestId("revision-to-option-1").click();
  await page.getByTestId("revision-compare").click();
  await expect(page).toHaveURL(/\/files\?from=3&to=1$/);
  await expect(notice).toContainText("Showing changes between revisions 3 and 1");
  await expect(page.getByTestId("revision-select")).toContainText("Revision 3 → 1");
  await expect(viewer).toContainText("extra");
  await page.setViewportSize({ width: 390, height: 844 });
  await noAxeViolations(page, "range control at 390");

  // any single commit: "Single commit…" opens its commit page
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.getByTestId("revision-commit").click();
  await page.getByRole("option", { name: /Extra file/ }).click();
  await expect(page).toHaveURL(/\/commit\/[0-9a-f]{40}$/);
  await expect(page.getByText("extra.ts").first()).toBeVisible();

  // a large interdiff is paged as all changes are: 15 new files of 200 lines (3,000 lines) push the
  // last files past the first page's 2,000 lines; they load from pulls.compareRevisionsPage on scroll
  const bulk: Record<string, string> = {};
  for (let f = 0; f < 15; f++)
    bulk[`bulk/f${String(f).padStart(2, "0")}.ts`] =
      Array.from({ length: 200 }, (_, i) => `export const bulk${f}_${i + 1} = ${i + 1};`).join("\n") + "\n";
  clone.commit(bulk, "Bulk files");
  clone.push("topic");
  await expect.poll(async () => ((await trpcQuery(reviewer, "pulls.revisions", { prId: pr.id })) as unknown[]).length).toBe(4);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${url}/files?from=3&to=4`);
  await expect(notice).toContainText("Showing changes between revisions 3 and 4");
  await diffReady(page);
  const paged = page.waitForRequest((r) => r.url().includes("pulls.compareRevisionsPage"));
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(viewer).toContainText("export const bulk14_200 = 200;", { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await paged;
});
