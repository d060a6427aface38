/**
 * The merge box follows the branches (docs/pulls.md "Pages", the merge box): with
 * the pull request page open, a push to the base that conflicts turns the box to "cannot be
 * merged" with the conflicting files, without a reload. "View conflicts" shows each file once
 * with its conflict regions inline (docs/pulls.md "Conflicts"), at phone size too: two regions in
 * one file, one in another, resolved with Accept ours, Accept both, Accept theirs then Edit (by
 * keyboard); "Commit merge" waits for every region and puts exactly those texts on the branch.
 */
import { test, expect } from "./fixtures";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("a conflicting push to the base shows in the open merge box; its regions are resolved and committed", async ({ browser, baseURL }) => {
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
  const LONG = `note = ${"a long line that must wrap and never be clipped ".repeat(6)}`;
  const config = (colour: string, size: string) => `colour = ${colour}\none\ntwo\nthree\nfour\n${LONG}\nsize = ${size}\n`;
  writeFile(dir, "config.txt", config("red", "1"));
  writeFile(dir, "notes.txt", "title = Notes\nbody = plain\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("push", "--quiet", remote, "main");
  git("checkout", "--quiet", "-b", "blue");
  writeFile(dir, "config.txt", config("blue", "3"));
  writeFile(dir, "notes.txt", "title = Notes\nbody = feature\n");
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
  writeFile(dir, "config.txt", config("green", "2"));
  writeFile(dir, "notes.txt", "title = Notes\nbody = main\n");
  git("commit", "--quiet", "-am", "Make it green");
  git("push", "--quiet", remote, "main");
  await expect(box).toHaveAttribute("data-can-merge", "false", { timeout: 30_000 });
  await expect(box.getByTestId("merge-ahead-behind")).toHaveText("1 commit ahead, 1 behind main");
  await expect(box.getByTestId("merge-conflicts")).toContainText("config.txt");
  await expect(box.getByTestId("merge-conflicts")).toContainText("notes.txt");
  await expect(box.getByTestId("merge-button")).toBeDisabled();

  await box.getByTestId("view-conflicts").click();
  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}/conflicts$`));
  await page.setViewportSize({ width: 390, height: 844 });
  const files = page.getByTestId("conflict-file");
  await expect(files).toHaveCount(2);
  const cfg = files.filter({ hasText: "config.txt" });
  const notes = files.filter({ hasText: "notes.txt" });
  const commit = page.getByTestId("commit-merge");
  await expect(page.getByTestId("conflicts-left-total")).toHaveText("3 conflicts left in 2 files");
  await expect(cfg.getByTestId("file-conflicts-left")).toHaveText("2 conflicts left");
  await expect(notes.getByTestId("file-conflicts-left")).toHaveText("1 conflict left");
  await expect(commit).toBeDisabled();
  // the file once: unchanged lines as text, each region with ours (main) and theirs (blue) inline, the base folded
  const [first, second] = [cfg.getByTestId("conflict-region").nth(0), cfg.getByTestId("conflict-region").nth(1)];
  await expect(cfg.getByTestId("conflict-region")).toHaveCount(2);
  await expect(first.getByTestId("region-ours")).toHaveText("colour = green");
  await expect(first.getByTestId("region-theirs")).toHaveText("colour = blue");
  await expect(first.getByTestId("region-base")).toBeHidden();
  await first.getByText("Base (merge base)").click();
  await expect(first.getByTestId("region-base")).toHaveText("colour = red");
  await expect(cfg.getByText(LONG)).toBeVisible();
  // nothing is clipped or scrolls sideways at 390 px: the long line wraps
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await cfg.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);

  // by keyboard: Accept ours on the first region
  await first.getByTestId("accept-ours").focus();
  await page.keyboard.press("Enter");
  await expect(first.getByTestId("region-status")).toHaveText("Resolved: ours");
  await expect(first.getByTestId("region-result")).toHaveText("colour = green");
  await second.getByTestId("accept-both").click();
  await expect(second.getByTestId("region-result")).toHaveText("size = 2 size = 3");
  await expect(cfg.getByTestId("file-conflicts-left")).toHaveText("Resolved");
  await expect(page.getByTestId("conflicts-left-total")).toHaveText("1 conflict left in 1 file");
  await expect(commit).toBeDisabled();
  // theirs, then edited in place; markers typed back keep it unresolved
  const region = notes.getByTestId("conflict-region");
  await region.getByTestId("accept-theirs").click();
  await region.getByTestId("edit-region").click();
  const edit = region.getByTestId("edit-region");
  const text = region.getByTestId("region-edit");
  await expect(text).toBeFocused();
  await expect(text).toHaveValue("body = feature");
  await text.fill("<<<<<<< main\nbody = main\n>>>>>>> blue");
  await expect(region.getByTestId("region-status")).toHaveText("Markers left");
  await expect(commit).toBeDisabled();
  await text.fill("body = main and feature");
  await expect(region.getByTestId("region-status")).toHaveText("Resolved: edited");
  await expect(edit).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("conflicts-left-total")).toHaveText("Every conflict is resolved");
  await commit.click();
  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}$`), { timeout: 30_000 });
  await expect(box).toHaveAttribute("data-can-merge", "true", { timeout: 30_000 });

  // the branch holds exactly the chosen texts (the merge commit: parents blue's old head and main)
  git("fetch", "--quiet", remote, "blue");
  expect(git("show", "FETCH_HEAD:config.txt")).toBe(`colour = green\none\ntwo\nthree\nfour\n${LONG}\nsize = 2\nsize = 3\n`);
  expect(git("show", "FETCH_HEAD:notes.txt")).toBe("title = Notes\nbody = main and feature\n");
  expect(git("rev-list", "--parents", "-n1", "FETCH_HEAD").trim().split(" ").slice(1)).toEqual([
    git("rev-parse", "blue").trim(),
    git("rev-parse", "main").trim(),
  ]);
  await context.close();
});
