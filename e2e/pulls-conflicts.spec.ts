/**
 * The merge box follows the branches (docs/pulls.md "Pages", the merge box): with
 * the pull request page open, a push to the base that conflicts turns the box to "cannot be
 * merged" with the conflicting file, without a reload; "View conflicts" shows base, ours (the
 * target) and theirs (the source) side by side.
 */
import { test, expect } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("a conflicting push to the base shows in the open merge box; the conflicts page shows the three sides", async ({
  browser,
  baseURL,
}) => {
  const user = await newUser(browser, baseURL!, "clash", stamp);
  const { username, context } = user;
  const trpc = user.trpc;
  const repo = await trpc("repos.create", { name: "clash" });
  const token = await user.token();
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-clash-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-clash-repo-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  const remote = user.remote(username, "clash", token);
  git("init", "--quiet");
  writeFile(dir, "config.txt", "colour = red\nsize = 1\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("push", "--quiet", remote, "main");
  git("checkout", "--quiet", "-b", "blue");
  writeFile(dir, "config.txt", "colour = blue\nsize = 1\n");
  git("commit", "--quiet", "-am", "Make it blue");
  git("push", "--quiet", remote, "blue");
  const pr = await trpc("pulls.create", {
    repoId: repo.id,
    title: "Make it blue",
    sourceBranch: "blue",
    targetBranch: "main",
    headSha: git("rev-parse", "blue").trim(),
    baseSha: git("rev-parse", "main").trim(),
  });

  const page = user.page;
  await page.goto(`/${username}/clash/pulls/${pr.number}`);
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "true");
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);

  // someone pushes a conflicting change to main while the page is open
  git("checkout", "--quiet", "main");
  writeFile(dir, "config.txt", "colour = green\nsize = 1\n");
  git("commit", "--quiet", "-am", "Make it green");
  git("push", "--quiet", remote, "main");
  await expect(box).toHaveAttribute("data-can-merge", "false", { timeout: 30_000 });
  await expect(box.getByTestId("merge-ahead-behind")).toHaveText("1 commit ahead, 1 behind main");
  await expect(box.getByTestId("merge-conflicts")).toContainText("config.txt");
  await expect(box.getByTestId("merge-button")).toBeDisabled();

  await box.getByTestId("view-conflicts").click();
  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}/conflicts$`));
  const file = page.getByTestId("conflict-file");
  await expect(file).toHaveCount(1);
  await expect(file.getByTestId("conflict-base")).toContainText("colour = red");
  await expect(file.getByTestId("conflict-ours")).toContainText("colour = green");
  await expect(file.getByTestId("conflict-theirs")).toContainText("colour = blue");
  await context.close();
});
