/**
 * Comment drafts (docs/ui.md "Drafts", docs/pulls.md "Comment drafts"): a line comment's text
 * survives Unified ↔ Split, collapsing its file and a reload (the box opens again at its line) and
 * is gone once posted; the pull request's comment box, the review summary and an issue's comment
 * box keep their text across a reload until posted.
 */
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("drafts survive view changes and reloads until posted", async ({ browser, baseURL }) => {
  test.setTimeout(150_000);
  const user = await newUser(browser, baseURL!, "drafts", stamp);
  const name = "drafts";
  const repo = await user.trpc("repos.create", { name });
  const { pr, url } = await openPullRequest(user, {
    repoId: repo.id,
    name,
    base: { "app.ts": "one\ntwo\nthree\n" },
    branch: "edit",
    changes: { "app.ts": "one\nTWO\nthree\nfour\n" },
    title: "Edit app",
  });
  const page = user.page;
  const ready = () => expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);

  // a line comment: Split, Unified, collapse / expand, reload
  await page.goto(`${url}/files`);
  await ready();
  await page.getByRole("button", { name: "Comment on line 2", exact: true }).click();
  const body = page.getByTestId("comment-form").getByTestId("comment-body");
  await body.fill("Why upper case?");
  await page.getByTestId("view-split").click();
  await expect(page.getByTestId("diff-viewer")).toHaveAttribute("data-view", "split");
  await expect(body).toHaveValue("Why upper case?");
  await page.getByTestId("view-unified").click();
  await expect(page.getByTestId("diff-viewer")).toHaveAttribute("data-view", "unified");
  await expect(body).toHaveValue("Why upper case?");
  await page.getByRole("button", { name: "Collapse app.ts" }).click();
  await expect(page.getByTestId("comment-form")).toHaveCount(0);
  await page.getByRole("button", { name: "Expand app.ts" }).click();
  await expect(body).toHaveValue("Why upper case?");
  await page.reload();
  await ready();
  await expect(page.getByTestId("comment-form-range")).toHaveText("Commenting on line 2");
  await expect(body).toHaveValue("Why upper case?");
  // posted: the draft is gone after a reload
  await page.getByTestId("add-single-comment").click();
  await expect(page.getByTestId("review-thread")).toContainText("Why upper case?");
  await expect(page.getByTestId("comment-form")).toHaveCount(0);
  const stored = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("svc.draft.")));
  await expect.poll(stored).toEqual([]);
  // the review summary is kept too
  await page.getByTestId("review-changes").click();
  await page.getByTestId("review-body").fill("Mostly fine");
  await page.keyboard.press("Escape");
  await page.reload();
  await ready();
  await expect(page.getByTestId("review-thread")).toHaveCount(1);
  await expect(page.getByTestId("comment-form")).toHaveCount(0);
  await page.getByTestId("review-changes").click();
  await expect(page.getByTestId("review-body")).toHaveValue("Mostly fine");
  await page.keyboard.press("Escape");

  // the pull request's comment box
  await page.goto(url);
  await ready();
  const main = page.getByTestId("pull-comment-input");
  await main.fill("A general remark");
  await page.reload();
  await ready();
  await expect(main).toHaveValue("A general remark");
  await page.getByTestId("pull-comment-submit").click();
  await expect(main).toHaveValue("");
  await page.reload();
  await ready();
  await expect(main).toHaveValue("");

  // an issue's comment box
  const issue = await user.trpc("issues.create", { repoId: repo.id, title: "Draft me" });
  await page.goto(`/${user.username}/${name}/issues/${issue.number}`);
  await ready();
  const box = page.getByTestId("comment-input");
  await box.fill("Half a thought");
  await page.reload();
  await ready();
  await expect(box).toHaveValue("Half a thought");
  await page.getByTestId("comment-submit").click();
  await expect(box).toHaveValue("");
  await page.reload();
  await ready();
  await expect(box).toHaveValue("");
  // only the review summary, never submitted, is still stored
  expect((await stored()).map((k) => k.replace(pr.id, "<pr>"))).toEqual(["svc.draft.pr:<pr>:review"]);
});
