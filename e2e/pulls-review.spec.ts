/**
 * Reviews on the Files changed tab (docs/pulls.md "Review in the browser (Files changed tab)"): a
 * write collaborator comments on a line, the author replies and resolves the thread; the reviewer
 * suggests a change on a line and the author commits it — the pull request gains a commit and the
 * diff shows the suggested line. Then a review is submitted with "Review changes".
 */
import { test, expect } from "./fixtures";
import { diffReady } from "./diff-ready";
import { openPullRequest } from "./pull-fixture";
import { AxeBuilder } from "./axe";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("comment on a line, reply, resolve; suggest a change and commit it; submit a review", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const author = await newUser(browser, baseURL!, "rvauth", stamp);
  const reviewer = await newUser(browser, baseURL!, "rvrev", stamp);
  const name = "review";
  const repo = await author.trpc("repos.create", { name });
  await author.trpc("repos.addCollaborator", { repoId: repo.id, username: reviewer.username, role: "write" });
  const { pr, clone } = await openPullRequest(author, {
    repoId: repo.id,
    name,
    base: { "app.ts": ["const a = 1;", "const b = 2;", "const c = 3;", ""].join("\n") },
    branch: "more",
    changes: { "app.ts": ["const a = 1;", "const b = 2;", "const c = 3;", "const d = 4;", "const e = 5;", ""].join("\n") },
    title: "Add d and e",
  });
  const filesUrl = `/${author.username}/${name}/pulls/${pr.number}/files`;

  // the reviewer comments on line 4
  const rp = reviewer.page;
  await rp.goto(filesUrl);
  await diffReady(rp);
  await rp.getByRole("button", { name: "Comment on line 4", exact: true }).click();
  const form = rp.getByTestId("comment-form");
  await expect(form.getByTestId("comment-form-range")).toHaveText("Commenting on line 4");
  await form.getByTestId("comment-body").fill("Is **d** needed?");
  await form.getByTestId("add-single-comment").click();
  const thread = rp.getByTestId("review-thread");
  await expect(thread).toHaveCount(1);
  await expect(thread.getByTestId("review-comment-body").locator("strong")).toHaveText("d");
  await expect(rp.getByTestId("comment-form")).toHaveCount(0);

  // the author sees it, replies and resolves
  const ap = author.page;
  await ap.goto(filesUrl);
  await diffReady(ap);
  const at = ap.getByTestId("review-thread");
  await expect(at).toContainText("Is d needed?");
  await at.getByTestId("thread-reply").click();
  await at.getByTestId("reply-body").fill("Yes, for the tests.");
  await at.getByTestId("reply-submit").click();
  await expect(at.getByTestId("review-comment")).toHaveCount(2);
  await at.getByTestId("thread-resolve").click();
  await expect(at).toHaveAttribute("data-resolved", "true");
  await expect(at.getByTestId("review-comment")).toHaveCount(0); // resolved threads collapse
  // the reviewer's open page follows (live update)
  await expect(thread).toHaveAttribute("data-resolved", "true", { timeout: 15_000 });

  // the reviewer suggests a change on lines 4–5 (shift-click extends the range)
  await rp.getByRole("button", { name: "Comment on line 4", exact: true }).click();
  await rp.getByRole("button", { name: "Comment on line 5", exact: true }).click({ modifiers: ["Shift"] });
  await expect(rp.getByTestId("comment-form-range")).toHaveText("Commenting on lines 4–5");
  await rp.getByTestId("insert-suggestion").click();
  await expect(rp.getByTestId("comment-body")).toHaveValue("```suggestion\nconst d = 4;\nconst e = 5;\n```");
  await rp.getByTestId("comment-body").fill("Shorter:\n```suggestion\nconst de = 45;\n```");
  await rp.getByTestId("add-single-comment").click();
  const suggestion = rp.getByTestId("suggestion");
  await expect(suggestion).toContainText("const de = 45;");
  await expect(suggestion).toContainText("const e = 5;");

  // threads, a suggestion and an open form: no serious axe violations, light and dark, at phone width
  await rp.setViewportSize({ width: 390, height: 844 });
  for (const theme of ["light", "dark"] as const) {
    await reviewer.context.addCookies([{ name: "svc-theme", value: theme, url: baseURL! }]);
    await rp.emulateMedia({ colorScheme: theme });
    await rp.reload();
    await diffReady(rp);
    await expect(rp.locator("html")).toHaveClass(new RegExp(`\\b${theme}\\b`));
    await expect(rp.getByTestId("suggestion")).toBeVisible();
    await rp.getByRole("button", { name: "Comment on line 1", exact: true }).click();
    await expect(rp.getByTestId("comment-form")).toBeVisible();
    const { scrollWidth, innerWidth } = await rp.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `${theme}: no sideways scroll`).toBeLessThanOrEqual(innerWidth);
    const results = await new AxeBuilder({ page: rp }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
    expect(
      results.violations
        .filter((v) => v.impact === "serious" || v.impact === "critical")
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`),
      theme,
    ).toEqual([]);
  }
  await rp.setViewportSize({ width: 1280, height: 720 });

  // the author commits it: a second commit, and the diff shows the new line
  await expect(ap.getByTestId("suggestion")).toBeVisible({ timeout: 15_000 });
  await ap.getByTestId("commit-suggestion").click();
  // the commit message dialog: GitHub's default for one suggestion
  const commitDialog = ap.getByTestId("commit-suggestion-dialog");
  await expect(commitDialog.getByTestId("commit-suggestion-message")).toHaveValue(`Apply suggestion from @${reviewer.username}`);
  await expect(commitDialog).toContainText(`Co-authored-by trailers are added for @${reviewer.username}`);
  await commitDialog.getByTestId("commit-suggestion-submit").click();
  await expect(ap.getByTestId("pull-tab-commits")).toContainText("2", { timeout: 15_000 });
  await expect(ap.getByTestId("diff-viewer")).toContainText("const de = 45;");
  // applying resolves the thread, and its lines changed: resolved and outdated
  const applied = (
    await (await author.context.request.get(`/api/trpc/pulls.comments?input=${encodeURIComponent(JSON.stringify({ prId: pr.id }))}`)).json()
  ).result.data;
  expect(
    applied.filter(
      (t: { suggestion: string | null; appliedSha: string | null; isResolved: boolean }) =>
        t.suggestion !== null && t.appliedSha && t.isResolved,
    ),
  ).toHaveLength(1);
  expect(clone.git("ls-remote", clone.remote, "refs/heads/more").split("\t")[0]).not.toBe(clone.sha("more"));

  // the reviewer approves with "Review changes"; the author only may comment
  await rp.reload();
  await diffReady(rp);
  await rp.getByTestId("review-changes").click();
  const dialog = rp.getByTestId("review-dialog");
  await dialog.getByTestId("review-body").fill("Looks good.");
  await dialog.getByTestId("review-state-approved").check();
  await dialog.getByTestId("review-submit").click();
  await expect(dialog).toHaveCount(0);
  const reviews = await reviewer.context.request.get(
    `/api/trpc/pulls.reviews?input=${encodeURIComponent(JSON.stringify({ prId: pr.id }))}`,
  );
  expect((await reviews.json()).result.data.map((r: { state: string }) => r.state)).toEqual(["approved"]);
  await ap.getByTestId("review-changes").click();
  await expect(ap.getByTestId("review-dialog").getByRole("radio")).toHaveCount(1);
  await ap.keyboard.press("Escape");
  await expect(ap.getByTestId("review-dialog")).toHaveCount(0);

  // j/k and n/p are in the shortcut sheet
  await ap.keyboard.press("?");
  await expect(ap.getByRole("dialog")).toContainText("Next file");
  await expect(ap.getByRole("dialog")).toContainText("Next comment thread");
  await expect(ap.getByRole("dialog")).toContainText("Comment on the focused line");
  await ap.keyboard.press("Escape");
  // c on a focused line's "+" opens the form there
  await ap.getByRole("button", { name: "Comment on line 1", exact: true }).focus();
  await ap.keyboard.press("c");
  await expect(ap.getByTestId("comment-form-range")).toHaveText("Commenting on line 1");
  await author.context.close();
  await reviewer.context.close();
});
