/**
 * The Files changed tab beyond single comments (docs/pulls.md "Files changed tab: batch, touch,
 * outdated"): suggestions gathered in a batch and committed as ONE commit (an overlapping pair
 * refused with the server's message), threads whose line left the diff shown collapsed at the top
 * of their file (or of the tab when the file left the diff) with their original hunk, the j/k/n/p/c
 * keys, and — on a touch screen at phone width — the "+" shown without hover, a tap on a line
 * number opening the form, and a mouse drag over line numbers selecting a range.
 */
import { noAxeViolations } from "./axe";
import { test, expect } from "./fixtures";
import { type Locator } from "@playwright/test";
import { diffReady } from "./diff-ready";
import { openPullRequest } from "./pull-fixture";
import { newUser, trpcQuery } from "./session";

const stamp = Date.now().toString(36);
const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i + 1)).join("\n") + "\n";

/** The distance from the window's top to `el`'s top (px). */
const topOf = async (el: Locator) => (await el.boundingBox())?.y ?? Number.NaN;

test("batch suggestions into one commit; outdated threads at the top of their file; j/k/n/p/c", async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const author = await newUser(browser, baseURL!, "sgauth", stamp);
  const name = "suggest";
  const repo = await author.trpc("repos.create", { name });
  const base = lines(8, (i) => `line ${i}`);
  const { pr, clone, headSha } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "app.ts": base },
    branch: "tweak",
    changes: {
      "app.ts": lines(8, (i) => (i === 2 ? "line two" : i === 5 ? "line five" : `line ${i}`)),
      "other.ts": lines(40, (i) => `export const x${i} = ${i};`),
    },
    title: "Tweak lines",
  });
  const at = { prId: pr.id, path: "app.ts" };
  const s1 = await author.trpc("pulls.addSuggestion", { ...at, line: 2, body: "Say it as a number", suggestion: "line 2 (suggested)\n" });
  const s2 = await author.trpc("pulls.addSuggestion", { ...at, line: 5, body: "Same here", suggestion: "line 5 (suggested)\n" });
  await author.trpc("pulls.addSuggestion", { ...at, startLine: 4, line: 5, body: "Or both", suggestion: "overlap\n" });
  await author.trpc("pulls.addComment", { ...at, line: 8, body: "About line eight" });
  await author.trpc("pulls.addComment", { prId: pr.id, path: "other.ts", line: 1, body: "About x1" });

  const page = author.page;
  await page.setViewportSize({ width: 1280, height: 500 });
  await page.goto(`/${author.username}/${name}/pulls/${pr.number}/files`);
  await diffReady(page);
  const threads = page.getByTestId("review-thread");
  await expect(threads).toHaveCount(5);

  // j / k: next and previous file header at the top of the window; n / p: next and previous thread
  const header = (path: string) => page.locator(`[data-testid='diff-file'][data-path='${path}']`);
  const thread = (text: string) => threads.filter({ hasText: text });
  const atTop = async (el: Locator) => expect.poll(() => topOf(el)).toBeLessThan(40);
  const below = async (el: Locator) => expect.poll(() => topOf(el)).toBeGreaterThan(100);
  await below(header("other.ts"));
  // content above the file list that grows after the list was drawn (a banner, a status loading
  // late) must not throw j/k/n/p off: the list's offset in the page is read again
  await page.evaluate(() => {
    const banner = Object.assign(document.createElement("div"), { style: "height: 70px" });
    document.querySelector("[data-testid='diff-viewer']")?.before(banner);
  });
  await page.keyboard.press("j");
  await atTop(header("other.ts"));
  await page.keyboard.press("k");
  await atTop(header("app.ts"));
  await page.keyboard.press("n");
  await atTop(thread("Say it as a number"));
  await page.keyboard.press("n");
  await atTop(thread("Same here"));
  await page.keyboard.press("n");
  await atTop(thread("About line eight"));
  await page.keyboard.press("p");
  await atTop(thread("Same here"));
  await page.keyboard.press("n");
  await page.keyboard.press("n");
  await atTop(thread("About x1"));
  // c on a focused line number opens the form on that line (other.ts has a line 3 too: app.ts's, first)
  await page.getByRole("button", { name: "Comment on line 3", exact: true }).first().focus();
  await page.keyboard.press("c");
  await expect(page.getByTestId("comment-form-range")).toHaveText("Commenting on line 3");
  await page.getByTestId("comment-form").getByRole("button", { name: "Cancel" }).click();
  await page.setViewportSize({ width: 1280, height: 900 });

  // two overlapping suggestions in the batch: refused with the server's list, nothing committed
  const suggestion = (text: string) => page.getByTestId("suggestion").filter({ hasText: text });
  const bar = page.getByTestId("suggestion-batch");
  await expect(bar).toHaveCount(0);
  await suggestion("line 5 (suggested)").getByTestId("batch-suggestion").click();
  await suggestion("overlap").getByTestId("batch-suggestion").click();
  await expect(suggestion("overlap").getByTestId("batch-suggestion")).toHaveText("Remove from batch");
  await expect(bar.getByTestId("batch-count")).toHaveText("2 suggestions in batch");
  // the commit message dialog starts from GitHub's default
  await bar.getByTestId("batch-commit").click();
  const dialog = page.getByTestId("commit-suggestion-dialog");
  await expect(dialog.getByTestId("commit-suggestion-message")).toHaveValue("Apply suggestions from code review");
  await dialog.getByTestId("commit-suggestion-submit").click();
  await expect(dialog.getByTestId("form-error")).toContainText("overlap");
  // the server lists the pair by comment id; the dialog names them by their authors
  await expect(dialog.getByTestId("form-error")).toContainText(
    `app.ts: @${author.username}'s suggestion (lines 4-5) and @${author.username}'s suggestion (lines 5-5)`,
  );
  await noAxeViolations(page, "commit dialog, light");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(bar.getByTestId("form-error")).toContainText("overlap");
  await noAxeViolations(page, "batch bar, light");
  expect((await trpcQuery(author, "pulls.getCommits", { prId: pr.id })).commits).toHaveLength(1);
  // Clear empties it; "Remove from batch" takes one out
  await bar.getByTestId("batch-clear").click();
  await expect(bar).toHaveCount(0);
  await suggestion("line 2 (suggested)").getByTestId("batch-suggestion").click();
  await suggestion("overlap").getByTestId("batch-suggestion").click();
  await suggestion("overlap").getByTestId("batch-suggestion").click();
  await suggestion("line 5 (suggested)").getByTestId("batch-suggestion").click();
  await expect(bar.getByTestId("batch-count")).toHaveText("2 suggestions in batch");
  // the batch survives a reload
  await page.reload();
  await diffReady(page);
  await expect(bar.getByTestId("batch-count")).toHaveText("2 suggestions in batch");
  await expect(suggestion("line 2 (suggested)").getByTestId("batch-suggestion")).toHaveText("Remove from batch");

  // Commit suggestions with a message of one's own: ONE new commit with both changes; both threads resolved
  await bar.getByTestId("batch-commit").click();
  await dialog.getByTestId("commit-suggestion-message").fill("Use numbers on lines 2 and 5");
  await dialog.getByTestId("commit-suggestion-submit").click();
  await expect(bar).toHaveCount(0, { timeout: 15_000 });
  // committed: the stored batch is gone
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.endsWith(":batch")))).toEqual([]);
  await expect(page.getByTestId("pull-tab-commits")).toContainText("2", { timeout: 15_000 });
  const { commits } = await trpcQuery(author, "pulls.getCommits", { prId: pr.id });
  expect(commits).toHaveLength(2);
  const applied = commits.find((c: { message: string }) => c.message.split("\n")[0] === "Use numbers on lines 2 and 5");
  expect(applied, JSON.stringify(commits)).toBeTruthy();
  clone.git("fetch", "--quiet", clone.remote, "tweak");
  clone.git("reset", "--hard", "--quiet", "FETCH_HEAD");
  expect(clone.git("rev-list", "--count", `${headSha}..HEAD`).trim()).toBe("1");
  expect(clone.git("show", "--format=", "--unified=0", "HEAD", "--", "app.ts")).toMatch(
    /\+line 2 \(suggested\)[\s\S]*\+line 5 \(suggested\)/,
  );
  const after = (await trpcQuery(author, "pulls.comments", { prId: pr.id })) as {
    id: string;
    isResolved: boolean;
    appliedSha: string | null;
  }[];
  for (const s of [s1, s2])
    expect(
      after.find((t) => t.id === s.id),
      s.id,
    ).toMatchObject({ isResolved: true, appliedSha: clone.sha("HEAD") });
  await expect(page.getByTestId("diff-viewer")).toContainText("line 2 (suggested)");

  // a push drops lines 7–8 and other.ts: "About line eight" moves to the top of app.ts, collapsed
  // with the hunk it was written on; "About x1" to the top of the tab (other.ts left the diff)
  clone.git("rm", "--quiet", "other.ts");
  clone.commit({ "app.ts": clone.git("show", "HEAD:app.ts").split("\n").slice(0, 6).join("\n") + "\n" }, "Drop the last lines");
  clone.push("tweak");
  await expect(page.getByTestId("pull-tab-commits")).toContainText("3", { timeout: 15_000 });
  await page.reload();
  await diffReady(page);
  const fileTop = page.getByTestId("file-outdated");
  await expect(fileTop).toHaveCount(1);
  await expect(fileTop.getByTestId("outdated-title")).toHaveText("1 outdated comment");
  await expect(fileTop).not.toContainText("About line eight"); // collapsed
  await fileTop.getByTestId("outdated-toggle").click();
  await expect(fileTop.getByTestId("pull-thread-hunk")).toContainText("+line five");
  await expect(fileTop.getByTestId("pull-thread-hunk")).toContainText("line 8");
  await expect(fileTop.getByTestId("review-thread")).toHaveAttribute("data-outdated", "true");
  await expect(fileTop.getByTestId("review-comment-body")).toHaveText("About line eight");
  const offDiff = page.getByTestId("offdiff-outdated");
  await expect(offDiff.getByTestId("outdated-title")).toHaveText("1 outdated comment on files no longer in this diff");
  await offDiff.getByTestId("outdated-toggle").click();
  await expect(offDiff).toContainText("other.ts");
  await expect(offDiff.getByTestId("review-comment-body")).toHaveText("About x1");
  await expect(offDiff.getByTestId("pull-thread-hunk")).toContainText("+export const x1 = 1;");
  await author.context.addCookies([{ name: "svc-theme", value: "dark", url: baseURL! }]);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await diffReady(page);
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.getByTestId("outdated-toggle").first().click();
  await page.getByTestId("outdated-toggle").last().click();
  await expect(page.getByTestId("pull-thread-hunk")).toHaveCount(2);
  await noAxeViolations(page, "outdated blocks, dark");
  await author.context.close();
});

test("touch: the + shows without hover at 390px and a tap on a line number opens the form; a mouse drag selects a range", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const author = await newUser(browser, baseURL!, "sgtouch", stamp);
  const name = "touch";
  const repo = await author.trpc("repos.create", { name });
  const { pr } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "a.txt": lines(3, (i) => `a${i}`) },
    branch: "b",
    changes: { "a.txt": lines(6, (i) => `a${i}`) },
    title: "More a",
  });
  const url = `/${author.username}/${name}/pulls/${pr.number}/files`;

  // a mouse: the "+" is hidden until hover; a drag from line 2's number to line 5's selects 2–5
  const page = author.page;
  await page.goto(url);
  await diffReady(page);
  const line = (p: typeof page, n: number) => p.getByRole("button", { name: `Comment on line ${n}`, exact: true });
  await expect(line(page, 4).getByTestId("comment-line-mark")).toHaveCSS("opacity", "0");
  const from = (await line(page, 2).boundingBox())!;
  const to = (await line(page, 5).boundingBox())!;
  await page.mouse.move(from.x + from.width - 4, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + to.width - 4, to.y + to.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByTestId("comment-form-range")).toHaveText("Commenting on lines 2–5");
  for (const n of [2, 3, 4, 5]) await expect(line(page, n)).toHaveAttribute("data-selected", "true");
  // shift-click extends it; a click on a line number (not only on the "+") starts over there
  await line(page, 6).click({ modifiers: ["Shift"], position: { x: 30, y: 8 } });
  await expect(page.getByTestId("comment-form-range")).toHaveText("Commenting on lines 2–6");
  await line(page, 1).click({ position: { x: 30, y: 8 } });
  await expect(page.getByTestId("comment-form-range")).toHaveText("Commenting on line 1");

  // a phone: coarse pointer, no hover — every "+" shows; a tap on a number opens the form
  const phone = await browser.newContext({
    storageState: await author.context.storageState(),
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const pp = await phone.newPage();
  await pp.goto(url);
  await diffReady(pp);
  expect(await pp.evaluate(() => matchMedia("(pointer: coarse)").matches || matchMedia("(hover: none)").matches)).toBe(true);
  await expect(line(pp, 4).getByTestId("comment-line-mark")).toHaveCSS("opacity", "1");
  await line(pp, 4).tap();
  await expect(pp.getByTestId("comment-form-range")).toHaveText("Commenting on line 4");
  const { scrollWidth, innerWidth } = await pp.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await phone.close();
  await author.context.close();
});
