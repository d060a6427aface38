/**
 * The merge box, the compare form and the "Compare & pull request" banner (issue #22 items 4, 5,
 * 9, 12; docs/pulls.md): a draft's box shows the real counts and marks it ready; a branch merged
 * by squash gets no banner; the compare form leaves the description empty for several commits and
 * fills it from the body of a single one; after a merge the branch is deleted and restored, and
 * "Revert" opens a pull request whose diff undoes the change. One repository, set up over tRPC.
 */
import { test, expect } from "./fixtures";
import { pushInitial, type LocalClone } from "./pull-fixture";
import { newUser, type E2EUser } from "./session";

const stamp = Date.now().toString(36);
const name = `box${stamp}`;
let user: E2EUser;
let clone: LocalClone;
let repoId: string;
const pulls: Record<string, { id: string; number: number }> = {};

/** Pushes `branch` from main with one commit per entry (files, message) and returns its tip. */
function pushBranch(branch: string, commits: [Record<string, string>, string][]): string {
  clone.git("checkout", "--quiet", "-b", branch, "main");
  for (const [files, message] of commits) clone.commit(files, message);
  clone.push(branch);
  clone.git("checkout", "--quiet", "main");
  return clone.sha(branch);
}

async function open(branch: string, headSha: string, extra: Record<string, unknown> = {}) {
  const pr = (await user.trpc("pulls.create", {
    repoId,
    title: `Pull ${branch}`,
    sourceBranch: branch,
    targetBranch: "main",
    headSha,
    baseSha: clone.sha("main"),
    ...extra,
  })) as { id: string; number: number };
  pulls[branch] = pr;
  return pr;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  user = await newUser(browser, baseURL!, "boxer", stamp);
  repoId = ((await user.trpc("repos.create", { name })) as { id: string }).id;
  clone = await pushInitial(user, name, { "README.md": "# Box\n" });
  const draft = pushBranch("feat/draft", [
    [{ "a.txt": "a\n" }, "Add a"],
    [{ "b.txt": "b\n" }, "Add b"],
  ]);
  await open("feat/draft", draft, { isDraft: true });
  const reverted = pushBranch("feat/revert", [[{ "revert.txt": "revert me\n" }, "Add revert.txt"]]);
  await user.trpc("pulls.merge", { prId: (await open("feat/revert", reverted)).id, strategy: "merge" });
  clone.git("pull", "--quiet", "--ff-only", clone.remote, "main");
  pushBranch("feat/multi-step", [
    [{ "m1.txt": "1\n" }, "First step"],
    [{ "m2.txt": "2\n" }, "Second step"],
  ]);
  pushBranch("feat/single", [[{ "s.txt": "s\n" }, "Subject line\n\nBody text here."]]);
  // pushed last, so it is the newest push: before the fix its banner was the first one
  const small = pushBranch("fix/small", [[{ "small.txt": "small\n" }, "Small fix"]]);
  await user.trpc("pulls.merge", { prId: (await open("fix/small", small)).id, strategy: "squash" });
});

test("a draft's merge box shows the real counts and marks it ready for review", async () => {
  const { page } = user;
  await page.goto(`/${user.username}/${name}/pulls/${pulls["feat/draft"].number}`);
  const box = page.getByTestId("merge-box");
  await expect(box.getByTestId("merge-ahead-behind")).toHaveText(/^2 commits ahead, \d+ behind main$/);
  await expect(box.getByTestId("merge-status")).toHaveText("This pull request is still a work in progress");
  await expect(box.getByTestId("merge-button")).toHaveCount(0);
  await box.getByTestId("merge-ready").click();
  await expect(box.getByTestId("merge-button")).toBeEnabled();
  await expect(box).toHaveAttribute("data-can-merge", "true");
  await expect(box.getByTestId("merge-ready")).toHaveCount(0);
});

test("a branch merged by squash gets no Compare & pull request banner", async () => {
  const { page } = user;
  await page.goto(`/${user.username}/${name}`);
  await expect(page.locator('[data-testid="recent-push-banner"][data-branch="feat/single"]')).toBeVisible();
  await expect(page.locator('[data-testid="recent-push-banner"][data-branch="fix/small"]')).toHaveCount(0);
});

test("the compare form: several commits leave the description empty, one fills it from its body", async () => {
  const { page } = user;
  await page.goto(`/${user.username}/${name}/compare/main...feat/multi-step`);
  const form = page.getByTestId("create-pull-form");
  await expect(form.getByTestId("create-pull-title")).toHaveValue("Multi step");
  await expect(form.getByTestId("create-pull-body")).toHaveValue("");
  await page.goto(`/${user.username}/${name}/compare/main...feat/single`);
  await expect(form.getByTestId("create-pull-title")).toHaveValue("Subject line");
  await expect(form.getByTestId("create-pull-body")).toHaveValue("Body text here.");
});

test("after a merge: delete and restore the branch, then Revert opens a pull request undoing it", async () => {
  const { page } = user;
  const pr = pulls["feat/revert"];
  await page.goto(`/${user.username}/${name}/pulls/${pr.number}`);
  const box = page.getByTestId("merged-box");
  await box.getByTestId("delete-branch").click();
  await expect(box.getByTestId("merged-box-branch")).toHaveText("The feat/revert branch was deleted.");
  await expect(page.getByTestId("pull-timeline")).toContainText("deleted the source branch");
  await box.getByTestId("restore-branch").click();
  await expect(box.getByTestId("delete-branch")).toBeVisible();
  await expect(box.getByTestId("merged-box-branch")).toHaveText("The feat/revert branch can be safely deleted.");

  await box.getByTestId("revert-pull").click();
  // a new branch, commit and pull request, then the page: slow on a busy CI machine
  await expect(page).toHaveURL(new RegExp(`/pulls/(?!${pr.number}$)\\d+$`), { timeout: 60_000 });
  await expect(page.getByTestId("pull-summary")).toContainText(`revert-${pr.number}-feat/revert`);
  await expect(page.getByTestId("pull-body-markdown")).toHaveText(`Reverts #${pr.number}`);
  await page.goto(`${page.url()}/files`);
  const file = page.getByTestId("diff-file");
  await expect(file).toHaveCount(1);
  await expect(file.getByTestId("diff-file-path")).toContainText("revert.txt");
  await expect(file).toContainText("+0−1"); // the added file is removed again
  await expect(page.getByTestId("diff-viewer")).toContainText("revert me");
});
