/**
 * Forks in a real browser (docs/pulls.md "Forks"): a second user forks a public repository from the Fork
 * button in the repository header, lands on the fork showing "forked from owner/name", and the
 * parent's header counts one fork. Between sibling forks (two forks of one parent), the compare
 * page shows the other fork's branch and opens the pull request into one's own fork.
 */
import { test, expect } from "./fixtures";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("fork a repository from its header", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "forkowner", stamp);
  const forker = await newUser(browser, baseURL!, "forker", stamp);
  const name = `upstream${stamp}`;
  await owner.trpc("repos.create", { name, isPrivate: false });

  const page = forker.page;
  await page.goto(`/${owner.username}/${name}`);
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await expect(page.getByTestId("fork-count")).toHaveText("0");
  await page.getByTestId("fork-button").click();
  const dialog = page.getByRole("dialog", { name: "Create a fork" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("fork-name")).toHaveValue(name);
  await dialog.getByTestId("fork-name").fill(`my-${name}`);
  await dialog.getByTestId("fork-save").click();
  await expect(page).toHaveURL(new RegExp(`/${forker.username}/my-${name}$`));
  await expect(page.getByTestId("forked-from")).toContainText(`forked from ${owner.username}/${name}`);

  await owner.page.goto(`/${owner.username}/${name}`);
  await expect(owner.page.getByTestId("fork-count")).toHaveText("1");
  await owner.context.close();
  await forker.context.close();
});

test("compare a sibling fork's branch and open the pull request into one's own fork", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "netowner", stamp);
  const ann = await newUser(browser, baseURL!, "netann", stamp);
  const ben = await newUser(browser, baseURL!, "netben", stamp);
  const name = `network${stamp}`;
  const parent = await owner.trpc("repos.create", { name, isPrivate: false });
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-net-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-net-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(dir, "README.md", "# Network\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  git("push", "--quiet", owner.remote(owner.username, name, await owner.token()), "main");
  await ann.trpc("repos.fork", { repoId: parent.id });
  await ben.trpc("repos.fork", { repoId: parent.id });
  // ann's branch exists only in ann's fork
  git("checkout", "--quiet", "-b", "idea");
  writeFile(dir, "idea.txt", "an idea\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Add an idea");
  git("push", "--quiet", ann.remote(ann.username, name, await ann.token()), "idea");

  const page = ben.page;
  await page.goto(`/${ben.username}/${name}/compare/main...${ann.username}:idea`);
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await expect(page.getByTestId("diff-viewer")).toBeVisible();
  await expect(page.getByTestId("diff-viewer")).toContainText("idea.txt");
  await expect(page.getByTestId("compare-commits")).toContainText("Add an idea");
  const form = page.getByTestId("create-pull-form");
  await expect(form.getByTestId("create-pull-title")).toHaveValue("Add an idea");
  await form.getByTestId("create-pull-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${ben.username}/${name}/pulls/\\d+$`));
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Open");
  await page.getByTestId("pull-tab-files").click();
  await expect(page.getByTestId("diff-viewer")).toContainText("idea.txt");
  for (const u of [owner, ann, ben]) await u.context.close();
});
