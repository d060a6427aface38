/**
 * Pull requests in a real browser (docs/pulls.md "Pages"): push a branch with the
 * real git CLI, open its pull request from the repository page's "Compare & pull request"
 * banner, read the diff in split view, mark a file viewed (and see it "Changed since viewed" after a
 * force-push that changes it), merge with squash, and see the merged state, the issue the
 * commit message closes ("Fixes #1") and the squashed commit in the code browser.
 */
import { test, expect } from "./fixtures";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("push a branch, open its pull request from the banner, read the split diff, squash-merge; the issue closes and the commit shows", async ({
  browser,
  baseURL,
}) => {
  const user = await newUser(browser, baseURL!, "puller", stamp);
  const { username, context, page } = user;
  const name = `app${stamp}`;
  const repo = await user.trpc("repos.create", { name });
  const issue = await user.trpc("issues.create", { repoId: repo.id, title: "Login greets nobody" });
  const token = await user.token();

  // main with two files, then a branch that edits one and adds another
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-pr-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-pr-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  const remote = user.remote(username, name, token);
  git("init", "--quiet");
  writeFile(dir, "README.md", "# App\n");
  writeFile(dir, "src/login.ts", ["export function greet(user: string): string {", '  return "hello";', "}", ""].join("\n"));
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("push", "--quiet", remote, "main");
  git("checkout", "--quiet", "-b", "fix/greeting");
  writeFile(dir, "src/login.ts", ["export function greet(user: string): string {", "  return `hello ${user}`;", "}", ""].join("\n"));
  writeFile(dir, "src/farewell.ts", 'export const bye = "bye";\n');
  git("add", "-A");
  git("commit", "--quiet", "-m", `Greet the user by name\n\nFixes #${issue.number}`);
  git("push", "--quiet", remote, "fix/greeting");

  // the banner on the repository page leads to the compare page with the create form
  await page.goto(`/${username}/${name}`);
  const banner = page.getByTestId("recent-push-banner");
  await expect(banner).toContainText("fix/greeting");
  await banner.getByTestId("compare-and-pull").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/compare/main\\.\\.\\.fix/greeting$`));
  await expect(page.getByTestId("diff-viewer")).toBeVisible();
  const form = page.getByTestId("create-pull-form");
  await expect(form.getByTestId("create-pull-title")).toHaveValue("Greet the user by name");
  await form.getByTestId("create-pull-submit").click();

  // the pull request page: header sentence, then the diff in split view
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/pulls/\\d+$`));
  const number = Number(page.url().split("/").pop());
  await expect(page.getByTestId("pull-summary")).toContainText("wants to merge 1 commit into main from fix/greeting");
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Open");
  await page.getByTestId("pull-tab-files").click();
  await expect(page.getByTestId("diff-viewer")).toBeVisible();
  await page.getByTestId("view-split").click();
  await expect(page.getByTestId("split-row").first()).toBeVisible();
  await expect(page.getByTestId("diff-file-path").filter({ hasText: "src/farewell.ts" })).toBeVisible();
  await expect(page.getByTestId("diff-viewer")).toContainText("hello ${user}");
  // "Viewed": the file collapses, the count follows, and the mark survives a reload
  await expect(page.getByTestId("viewed-count")).toHaveText("0 / 2 files viewed");
  await page.getByRole("checkbox", { name: "Viewed src/login.ts" }).check();
  await expect(page.getByTestId("viewed-count")).toHaveText("1 / 2 files viewed");
  await expect(page.getByRole("button", { name: "Expand src/login.ts" })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Viewed src/login.ts" })).toBeChecked();
  await expect(page.getByTestId("diff-viewer")).not.toContainText("hello ${user}");
  // a force-push that changes the file's own change clears the mark, labelled "Changed since viewed"
  writeFile(dir, "src/login.ts", ["export function greet(user: string): string {", "  return `hi ${user}`;", "}", ""].join("\n"));
  git("commit", "--quiet", "-a", "--amend", "--no-edit");
  git("push", "--quiet", "--force", remote, "fix/greeting");
  await page.reload();
  await expect(page.getByTestId("file-changed-since-viewed")).toHaveText("Changed since viewed");
  await expect(page.getByRole("checkbox", { name: "Viewed src/login.ts" })).not.toBeChecked();
  await expect(page.getByTestId("viewed-count")).toHaveText("0 / 2 files viewed");
  await expect(page.getByTestId("diff-viewer")).toContainText("hi ${user}");
  await page.getByRole("checkbox", { name: "Viewed src/login.ts" }).check();
  await expect(page.getByTestId("file-changed-since-viewed")).toHaveCount(0);
  await expect(page.getByTestId("viewed-count")).toHaveText("1 / 2 files viewed");

  // merge with squash from the conversation's merge box
  await page.getByTestId("pull-tab-conversation").click();
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "true");
  await box.getByTestId("merge-strategy").click();
  await page.getByTestId("merge-strategy-option-squash").click();
  await expect(box.getByTestId("merge-message")).toHaveValue(new RegExp(`^Greet the user by name \\(#${number}\\)`));
  await box.getByTestId("merge-button").click();
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Merged");
  await expect(page.getByTestId("pull-event").filter({ hasText: "merged this pull request (squash)" })).toBeVisible();

  // the issue named by "Fixes #N" is closed; the squashed commit heads main's history
  await page.goto(`/${username}/${name}/issues/${issue.number}`);
  await expect(page.getByTestId("state-badge")).toHaveText("Closed");
  await page.goto(`/${username}/${name}/commits`);
  await expect(page.getByTestId("commit-history")).toContainText(`Greet the user by name (#${number})`);

  // the list shows it under Merged; its number redirects from /issues/N
  await page.goto(`/${username}/${name}/pulls?state=merged`);
  await expect(page.getByTestId("pull-row")).toHaveCount(1);
  await page.goto(`/${username}/${name}/issues/${number}`);
  await expect(page).toHaveURL(new RegExp(`/pulls/${number}$`));
  await context.close();
});

test("a fork's recent push offers a pull request into the parent, opened from the fork's branch", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "upstr", stamp);
  const forker = await newUser(browser, baseURL!, "forkr", stamp);
  const name = `lib${stamp}`;
  const parent = await owner.trpc("repos.create", { name });
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-fork-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-fork-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(dir, "lib.ts", "export const version = 1;\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("push", "--quiet", owner.remote(owner.username, name, await owner.token()), "main");

  // the forker forks, pushes a branch to the fork, and follows the fork's banner
  await forker.trpc("repos.fork", { repoId: parent.id });
  git("checkout", "--quiet", "-b", "bump");
  writeFile(dir, "lib.ts", "export const version = 2;\n");
  git("commit", "--quiet", "-am", "Bump the version");
  git("push", "--quiet", forker.remote(forker.username, name, await forker.token()), "bump");
  const page = forker.page;
  await page.goto(`/${forker.username}/${name}`);
  await page.getByTestId("recent-push-banner").getByTestId("compare-and-pull").click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}/${name}/compare/${forker.username}(:|%3A)bump$`));
  await expect(page.getByTestId("compare-head-repo")).toContainText(`${forker.username}/${name}`);
  await expect(page.getByTestId("ahead-behind")).toContainText("1 commit ahead");
  await page.getByTestId("create-pull-form").getByTestId("create-pull-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}/${name}/pulls/\\d+$`));
  await expect(page.getByTestId("pull-source")).toHaveText(`${forker.username}:bump`);
  await expect(page.getByTestId("pull-summary")).toContainText("wants to merge 1 commit into main");
  await owner.context.close();
  await forker.context.close();
});
