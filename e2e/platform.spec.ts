/**
 * The platform's main journey in a real browser against a real server (issue 2 "End-to-end"):
 * sign up → create a repository → create a token on the settings page (secret shown once) →
 * push a fixture with the real `git` CLI over HTTP, the token as password → browse: README
 * rendered, a highlighted TypeScript file, a branch with a slash in its name → revoke the
 * token in the UI → pushing with it fails.
 */
import { signOutInUi } from "./session";
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { mustRunGit, runGit, writeFile } from "./git";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PASSWORD = "correct horse battery";
const username = `e2e${Date.now().toString(36)}`;
const repoName = "demo-app";
// a scratch folder for the fixture and git's HOME, made in the worker only
let work = "";
let gitHome = "";
test.beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-git-"));
  gitHome = path.join(work, "home");
  mkdirSync(gitHome);
});
test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function git(cwd: string, ...args: string[]) {
  return runGit(gitHome, cwd, args);
}

function mustGit(cwd: string, ...args: string[]) {
  return mustRunGit(gitHome, cwd, args);
}

const write = writeFile;

function makeFixture(): string {
  const dir = path.join(work, "fixture");
  mkdirSync(dir);
  mustGit(dir, "init", "--quiet");
  write(
    dir,
    "README.md",
    [
      "# Demo App",
      "",
      "A fixture pushed by the **end-to-end** test.",
      "",
      "| Feature | Status |",
      "| --- | --- |",
      "| Push | done |",
      "",
      "- [x] rendered with GFM",
      "",
      "```ts",
      "export const answer = 42;",
      "```",
      "",
    ].join("\n"),
  );
  write(dir, "package.json", JSON.stringify({ name: "demo-app", version: "1.0.0" }, null, 2) + "\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Initial commit");
  write(
    dir,
    "src/lib/math.ts",
    [
      "/** Adds two numbers. */",
      "export function add(a: number, b: number): number {",
      "  return a + b;",
      "}",
      "",
      'export const greeting: string = "hello";',
      "",
    ].join("\n"),
  );
  write(dir, "src/index.ts", ['import { add } from "./lib/math";', "", "console.log(add(1, 2));", ""].join("\n"));
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Add math library");
  write(dir, "docs/guide/intro.md", "# Introduction\n\nSee [the library](../../src/lib/math.ts).\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Document the library");
  mustGit(dir, "checkout", "--quiet", "-b", "feature/login");
  write(dir, "src/login.ts", "export const login = (user: string) => `welcome ${user}`;\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Add login");
  mustGit(dir, "checkout", "--quiet", "main");
  return dir;
}

function withCredentials(cloneUrl: string, token: string): string {
  const u = new URL(cloneUrl);
  u.username = username;
  u.password = token;
  return u.toString();
}

async function expectSignedIn(page: Page) {
  await expect(page.getByTestId("user-menu")).toContainText(username);
}

test("sign up, create a repository and a token, push with git, browse, revoke", async ({ page, baseURL }) => {
  // --- sign up: server errors are shown, then a real account signs in
  await page.goto("/signup");
  await expect(page.getByTestId("signup-submit")).toBeEnabled(); // hydrated
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("short");
  await page.getByTestId("signup-submit").click();
  await expect(page.getByTestId("form-error")).toContainText("Password must be at least 8 characters");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByTestId("signup-submit").click();
  await expectSignedIn(page);
  await expect(page.getByRole("heading", { name: "Your repositories" })).toBeVisible();

  // --- create a repository from the dashboard
  await page.getByTestId("new-repo-button").click();
  await expect(page).toHaveURL(/\/new$/);
  await expect(page.getByTestId("create-repo-submit")).toBeEnabled();
  await page.getByLabel("Repository name").fill(repoName);
  await page.getByLabel("Description").fill("End-to-end fixture");
  await page.getByTestId("create-repo-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${repoName}$`));
  await expect(page.getByTestId("empty-repo")).toBeVisible();
  const cloneUrl = await page.getByTestId("clone-url").inputValue();
  expect(cloneUrl).toBe(`${baseURL}/${username}/${repoName}.git`);
  await expect(page.getByTestId("push-existing")).toContainText(`git remote add origin ${cloneUrl}`);
  await expect(page.getByTestId("push-existing")).toContainText("git push -u origin main");

  // a private repository, for the visibility check after signing out
  await page.goto("/new");
  await expect(page.getByTestId("create-repo-submit")).toBeEnabled();
  await page.getByLabel("Repository name").fill("secret-stuff");
  await page.getByLabel("Private").check();
  await page.getByTestId("create-repo-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/secret-stuff$`));
  await expect(page.getByText("Private", { exact: true })).toBeVisible();

  // a duplicate name is refused with the server's message
  await page.goto("/new");
  await expect(page.getByTestId("create-repo-submit")).toBeEnabled();
  await page.getByLabel("Repository name").fill(repoName);
  await page.getByTestId("create-repo-submit").click();
  await expect(page.getByTestId("form-error")).toContainText("already have a repository");

  // --- create a token; the secret is shown once
  await page.goto("/settings/tokens");
  await expect(page.getByTestId("no-tokens")).toBeVisible();
  await expect(page.getByTestId("create-token-submit")).toBeEnabled();
  await page.getByLabel("Name").fill("e2e push");
  await expect(page.getByTestId("scope-repo:read")).toBeChecked();
  await expect(page.getByTestId("scope-repo:write")).toBeChecked();
  await page.getByTestId("token-expiry").selectOption("30");
  await page.getByTestId("create-token-submit").click();
  await expect(page.getByTestId("new-token")).toBeVisible();
  await expect(page.getByTestId("new-token-warning")).toContainText("will not be shown again");
  const token = await page.getByTestId("new-token-value").inputValue();
  expect(token).toMatch(/^svc_[A-Za-z0-9]{8}_[A-Za-z0-9]{32,}$/);
  const prefix = token.split("_")[1];
  const row = page.getByTestId("token-row").filter({ hasText: "e2e push" });
  await expect(row.getByTestId("token-prefix")).toHaveText(`svc_${prefix}…`);
  await expect(row.getByTestId("token-last-used")).toHaveText("Last used never");
  await expect(row).toContainText("repo:write");

  await page.reload();
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e push" })).toBeVisible();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(token);

  // --- push a fixture with the git CLI, the token as the password
  const fixture = makeFixture();
  const remote = withCredentials(cloneUrl, token);
  mustGit(fixture, "push", remote, "main", "feature/login");

  // --- browse: README rendered with GFM, latest commit, file tree
  await page.goto(`/${username}/${repoName}`);
  const readme = page.getByTestId("readme");
  await expect(readme.getByRole("heading", { level: 1, name: "Demo App" })).toBeVisible();
  await expect(readme.locator("table")).toContainText("Push");
  await expect(readme.locator("strong")).toHaveText("end-to-end");
  await expect(readme.locator('input[type="checkbox"]')).toBeChecked();
  await expect(page.getByTestId("latest-commit")).toContainText("Document the library");
  await expect(page.getByTestId("clone-url")).toHaveValue(cloneUrl);
  await expect(page.getByTestId("tree-entry").first()).toHaveText("docs");

  // nested directories down to a TypeScript file, highlighted by shiki
  await page.getByTestId("tree-entry").filter({ hasText: /^src$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${repoName}/tree/main/src$`));
  await expect(page.getByTestId("breadcrumbs")).toContainText("src");
  await page.getByTestId("tree-entry").filter({ hasText: /^lib$/ }).click();
  await page.getByTestId("tree-entry").filter({ hasText: "math.ts" }).click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${repoName}/blob/main/src/lib/math\\.ts$`));
  const code = page.getByTestId("code-view");
  await expect(code).toHaveAttribute("data-lang", "typescript");
  await expect(code).toContainText("export function add(a: number, b: number): number {");
  await expect(code.locator("pre.shiki")).toHaveCount(1);
  const colored = code.locator('span.line span[style*="color"]');
  expect(await colored.count()).toBeGreaterThan(10);
  const colors = new Set(await colored.evaluateAll((els) => els.map((e) => getComputedStyle(e).color)));
  expect(colors.size).toBeGreaterThan(2);
  await expect(page.getByTestId("latest-commit")).toContainText("Add math library");
  await page.screenshot({ path: test.info().outputPath("code-browser-file.png"), fullPage: true });

  // a branch whose name has a slash, through the branch switcher
  await page.getByTestId("branch-switcher").click();
  await page.getByRole("option", { name: "feature/login" }).click();
  await expect(page).toHaveURL(new RegExp(`/blob/feature/login/src/lib/math\\.ts$`));
  await expect(page.getByTestId("current-ref")).toHaveText("feature/login");
  await page.goto(`/${username}/${repoName}/tree/feature/login/src`);
  await expect(page.getByTestId("tree-entry").filter({ hasText: "login.ts" })).toBeVisible();
  await page.goto(`/${username}/${repoName}/tree/main/src`);
  await expect(page.getByTestId("tree-entry").filter({ hasText: "login.ts" })).toHaveCount(0);

  // unknown paths and repositories are 404 pages
  const missing = await page.goto(`/${username}/${repoName}/blob/main/nope.ts`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();

  // --- the push was recorded as the token's last use; revoke it with confirmation
  await page.goto("/settings/tokens");
  const pushRow = page.getByTestId("token-row").filter({ hasText: "e2e push" });
  await expect(pushRow.getByTestId("token-last-used")).not.toHaveText("Last used never");
  await pushRow.getByTestId("revoke-token").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(`svc_${prefix}`);
  await dialog.getByTestId("confirm-button").click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("no-tokens")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("no-tokens")).toBeVisible();

  // --- pushing with the revoked token fails
  write(fixture, "CHANGELOG.md", "# Changelog\n");
  mustGit(fixture, "add", "-A");
  mustGit(fixture, "commit", "--quiet", "-m", "Add changelog");
  const refused = git(fixture, "push", remote, "main");
  expect(refused.code).not.toBe(0);
  expect(refused.out).toMatch(/Authentication failed|401|403|invalid|revoked/i);

  // the server still has the earlier history only
  await page.goto(`/${username}/${repoName}`);
  await expect(page.getByTestId("latest-commit")).toContainText("Document the library");
  await expect(page.getByTestId("tree-entry").filter({ hasText: "CHANGELOG.md" })).toHaveCount(0);

  // --- sign out: public code stays readable, the private repository is a 404
  await signOutInUi(page);
  await expect(page.getByRole("navigation").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Create an account" })).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  expect((await page.goto(`/${username}/${repoName}/blob/main/src/lib/math.ts`))?.status()).toBe(200);
  await expect(page.getByTestId("code-view")).toHaveAttribute("data-lang", "typescript");
  expect((await page.goto(`/${username}/secret-stuff`))?.status()).toBe(404);
  await expect(page.getByTestId("not-found")).toBeVisible();

  // --- sign in again: a wrong password is refused, the right one shows both repositories
  await page.goto("/signin");
  await expect(page.getByTestId("signin-submit")).toBeEnabled();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("not the password");
  await page.getByTestId("signin-submit").click();
  await expect(page.getByTestId("form-error")).toContainText("incorrect username or password");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByTestId("signin-submit").click();
  await expectSignedIn(page);
  const list = page.getByTestId("repo-list");
  await expect(list).toContainText(repoName);
  await expect(list).toContainText("secret-stuff");
});
