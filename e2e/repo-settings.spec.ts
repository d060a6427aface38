/**
 * Repository settings and commit history in a real browser against the real server:
 * collaborators (add, unknown user, role change, remove) seen from a second user's browser
 * context, admin-only settings (404 for everyone else), the visibility toggle, the default branch
 * after pushing two branches with git, the history page with its day groups and pagination (more
 * than 30 commits pushed), a file's history from the blob view, and deleting a repository with
 * the typed confirmation.
 */
import { test, expect } from "./fixtures";
import { type Browser, type BrowserContext, type Locator, type Page } from "@playwright/test";
import { mustRunGit, writeFile } from "./git";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const PASSWORD = "correct horse battery";
const stamp = Date.now().toString(36);

let work = "";
let gitHome = "";
test.beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-settings-"));
  gitHome = path.join(work, "home");
  mkdirSync(gitHome);
});
test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const GRACE = { name: "Grace Hopper", email: "grace@example.com" };

function mustGit(cwd: string, ...args: string[]): string {
  return mustRunGit(gitHome, cwd, args, GRACE);
}

const write = writeFile;

interface User {
  username: string;
  context: BrowserContext;
  page: Page;
}

/** A fresh user signed in in its own browser context (users.signUp, then next-auth's credentials flow). */
async function newUser(browser: Browser, prefix: string): Promise<User> {
  const username = `${prefix}${stamp}`;
  const context = await browser.newContext();
  const signUp = await context.request.post("/api/trpc/users.signUp", { data: { username, password: PASSWORD } });
  expect(signUp.status()).toBe(200);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  const signIn = await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username, password: PASSWORD, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByTestId("user-menu")).toContainText(username);
  return { username, context, page };
}

/** Creates a repository over tRPC with the context's session cookie (and this site's Origin, as a page would send). */
async function createRepo(user: User, name: string, isPrivate: boolean) {
  const r = await user.context.request.post("/api/trpc/repos.create", {
    headers: { origin: test.info().project.use.baseURL! },
    data: { name, isPrivate },
  });
  expect(r.status()).toBe(200);
}

async function openSettings(page: Page, owner: string, repo: string) {
  await page.goto(`/${owner}/${repo}`);
  await page.getByTestId("repo-settings-tab").click();
  await expect(page).toHaveURL(new RegExp(`/${owner}/${repo}/settings$`));
  await expect(page.getByRole("heading", { name: "Danger zone" })).toBeVisible();
}

/** Picks a role in a collaborator row and waits for the server to answer and the row to settle. */
async function changeRole(page: Page, row: Locator, role: string) {
  const saved = page.waitForResponse((r) => r.url().includes("repos.addCollaborator") && r.request().method() === "POST");
  await row.getByTestId("collaborator-role").selectOption(role);
  expect((await saved).ok()).toBe(true);
  await expect(row.getByTestId("collaborator-role")).toHaveValue(role);
  await expect(row.getByTestId("collaborator-role")).toBeEnabled();
}

async function status(page: Page, url: string): Promise<number | undefined> {
  return (await page.goto(url))?.status();
}

test("collaborators: add, unknown user, change role, remove; settings only for admins", async ({ browser }) => {
  const owner = await newUser(browser, "own");
  const other = await newUser(browser, "col");
  const repo = "team-secret";
  await createRepo(owner, repo, true);
  const repoUrl = `/${owner.username}/${repo}`;
  const { page } = owner;

  // a stranger sees neither the private repository nor its settings
  expect(await status(other.page, repoUrl)).toBe(404);
  expect(await status(other.page, `${repoUrl}/settings`)).toBe(404);

  await openSettings(page, owner.username, repo);
  const section = page.getByTestId("settings-collaborators");
  await expect(section.getByTestId("no-collaborators")).toBeVisible();
  await expect(section.getByTestId("add-collaborator")).toBeEnabled(); // hydrated

  // an unknown username: the server's message as the field's error, which marks the input invalid
  const usernameInput = section.getByLabel("Add a collaborator");
  await usernameInput.fill("nobody-by-that-name");
  await section.getByTestId("add-collaborator").click();
  await expect(section.getByTestId("field-error")).toContainText('User "nobody-by-that-name" not found');
  await expect(usernameInput).toHaveAttribute("aria-invalid", "true");
  await expect(usernameInput).toHaveAccessibleDescription(/User "nobody-by-that-name" not found/);

  // add the second user with write access
  await section.getByLabel("Add a collaborator").fill(other.username);
  await section.getByTestId("new-collaborator-role").selectOption("write");
  await section.getByTestId("add-collaborator").click();
  await expect(section.getByTestId("collaborator-added")).toContainText(`Added ${other.username} with write access`);
  const row = section.getByTestId("collaborator-row").filter({ hasText: other.username });
  await expect(row.getByTestId("collaborator-role")).toHaveValue("write");
  await expect(row).toContainText("Added");
  await expect(section.getByTestId("field-error")).toHaveCount(0);
  await expect(usernameInput).not.toHaveAttribute("aria-invalid");
  await expect(section.getByTestId("no-collaborators")).toHaveCount(0);

  // the collaborator now sees the private repository and may push, but has no settings
  expect(await status(other.page, repoUrl)).toBe(200);
  await expect(other.page.getByTestId("empty-repo")).toBeVisible();
  await expect(other.page.getByTestId("push-existing")).toBeVisible();
  await expect(other.page.getByTestId("repo-settings-tab")).toHaveCount(0);
  expect(await status(other.page, `${repoUrl}/settings`)).toBe(404);
  await expect(other.page.getByTestId("not-found")).toBeVisible();

  // change the role to read: still visible, no push instructions
  await changeRole(page, row, "read");
  await page.reload();
  await expect(section.getByTestId("collaborator-row").filter({ hasText: other.username }).getByTestId("collaborator-role")).toHaveValue(
    "read",
  );
  expect(await status(other.page, repoUrl)).toBe(200);
  await expect(other.page.getByTestId("empty-repo")).toBeVisible();
  await expect(other.page.getByTestId("push-existing")).toHaveCount(0);

  // admin: the collaborator gets the Settings tab too
  await changeRole(page, row, "admin");
  await openSettings(other.page, owner.username, repo);
  await expect(other.page.getByTestId("settings-collaborators").getByTestId("collaborator-row")).toHaveCount(1);

  // remove, with a confirmation: the second user is back to a 404
  await page.reload();
  const current = section.getByTestId("collaborator-row").filter({ hasText: other.username });
  await current.getByTestId("remove-collaborator").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(other.username);
  await dialog.getByTestId("confirm-button").click();
  await expect(dialog).toHaveCount(0);
  await expect(section.getByTestId("collaborator-row")).toHaveCount(0);
  await expect(section.getByTestId("no-collaborators")).toBeVisible();
  expect(await status(other.page, repoUrl)).toBe(404);
  expect(await status(other.page, `${repoUrl}/settings`)).toBe(404);

  await owner.context.close();
  await other.context.close();
});

test("visibility: public ↔ private with a confirmation", async ({ browser }) => {
  const owner = await newUser(browser, "vis");
  const repo = "flip-flop";
  await createRepo(owner, repo, false);
  const repoUrl = `/${owner.username}/${repo}`;
  const anonymous = await (await browser.newContext()).newPage();
  expect(await status(anonymous, repoUrl)).toBe(200);
  // signed out: no Settings tab, and the settings URL is a 404
  await expect(anonymous.getByTestId("repo-settings-tab")).toHaveCount(0);
  expect(await status(anonymous, `${repoUrl}/settings`)).toBe(404);

  const { page } = owner;
  await openSettings(page, owner.username, repo);
  const section = page.getByTestId("settings-visibility");
  await expect(section.getByTestId("current-visibility")).toHaveText("Public");

  // cancel changes nothing
  await section.getByTestId("toggle-visibility").click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("Make this repository private?");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("confirm-dialog")).toHaveCount(0);
  await expect(section.getByTestId("current-visibility")).toHaveText("Public");

  await section.getByTestId("toggle-visibility").click();
  await page.getByTestId("confirm-dialog").getByTestId("confirm-button").click();
  await expect(page.getByTestId("confirm-dialog")).toHaveCount(0);
  await expect(section.getByTestId("current-visibility")).toHaveText("Private");
  await expect(page.getByTestId("repo-name").locator("..")).toContainText("Private");
  expect(await status(anonymous, repoUrl)).toBe(404);

  await section.getByTestId("toggle-visibility").click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("Make this repository public?");
  await page.getByTestId("confirm-dialog").getByTestId("confirm-button").click();
  await expect(section.getByTestId("current-visibility")).toHaveText("Public");
  expect(await status(anonymous, repoUrl)).toBe(200);

  await anonymous.context().close();
  await owner.context.close();
});

test("default branch, description and commit history with pagination", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, "his");
  const repo = "history-demo";
  await createRepo(owner, repo, false);
  const repoUrl = `/${owner.username}/${repo}`;
  const { page } = owner;

  // empty: no branch to pick, and a friendly empty history
  await openSettings(page, owner.username, repo);
  await expect(page.getByTestId("default-branch-select")).toBeDisabled();
  await expect(page.getByTestId("default-branch-empty-hint")).toBeVisible();
  await page.goto(`${repoUrl}/commits/main`);
  await expect(page.getByTestId("no-commits")).toContainText("No commits yet");

  // the description, saved from General
  await openSettings(page, owner.username, repo);
  const general = page.getByTestId("settings-general");
  await general.getByLabel("Description").fill("History and branches");
  await general.getByTestId("save-description").click();
  await expect(general.getByTestId("description-saved")).toBeVisible();
  await expect(page.getByText("History and branches").first()).toBeVisible(); // header, after refresh

  // a token with the session cookie, then push 37 commits on main and a "develop" branch
  const created = await owner.context.request.post("/api/tokens", {
    headers: { origin: test.info().project.use.baseURL! },
    data: { name: "e2e history", scopes: ["repo:read", "repo:write"] },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();
  const dir = path.join(work, "history");
  mkdirSync(dir);
  mustGit(dir, "init", "--quiet");
  write(dir, "README.md", "# History demo\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Initial commit");
  for (let i = 1; i <= 35; i++) {
    write(dir, "counter.txt", `${i}\n`);
    if (i % 10 === 0) write(dir, "notes/log.md", `# Log\n\nEntry ${i}\n`);
    mustGit(dir, "add", "-A");
    mustGit(dir, "commit", "--quiet", "-m", i === 12 ? `Step ${i}\n\nWhy step ${i} matters:\nit has a body.` : `Step ${i}`);
  }
  mustGit(dir, "checkout", "--quiet", "-b", "develop");
  write(dir, "DEVELOP.md", "work in progress\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Start develop");
  const remote = new URL(`${baseURL}${repoUrl}.git`);
  remote.username = owner.username;
  remote.password = token;
  mustGit(dir, "push", "--quiet", remote.toString(), "main", "develop");

  // switch the default branch to develop
  await openSettings(page, owner.username, repo);
  const select = page.getByTestId("default-branch-select");
  await expect(select).toBeEnabled();
  await expect(select).toHaveValue("main");
  await select.selectOption("develop");
  await page.getByTestId("save-default-branch").click();
  await expect(page.getByTestId("default-branch-saved")).toContainText("develop");
  await page.reload();
  await expect(page.getByTestId("default-branch-select")).toHaveValue("develop");
  await page.goto(repoUrl);
  await expect(page.getByTestId("current-ref")).toHaveText("develop");
  await expect(page.getByTestId("latest-commit")).toContainText("Start develop");

  // history of develop from the latest-commit bar: 37 commits, 30 a page, grouped by day
  await page.getByTestId("latest-commit").getByTestId("history-link").click();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/commits/develop$`));
  const rows = page.getByTestId("commit-row");
  await expect(rows).toHaveCount(30);
  await expect(rows.first().getByTestId("commit-title")).toHaveText("Start develop");
  await expect(rows.first().getByTestId("commit-author")).toHaveText("Grace Hopper");
  await expect(rows.first().getByTestId("commit-sha")).toHaveText(/^[0-9a-f]{7}$/);
  await expect(rows.first().getByTestId("commit-date")).toHaveAttribute("title", /UTC$/);
  await expect(page.getByTestId("commit-group").first()).toContainText("Commits on");
  await expect(page.getByTestId("newer-commits")).toHaveCount(0);

  // a commit body is hidden until expanded
  const withBody = rows.filter({ hasText: "Step 12" });
  await expect(withBody.getByTestId("commit-body")).toHaveCount(0);
  await withBody.getByTestId("commit-body-toggle").click();
  await expect(withBody.getByTestId("commit-body")).toContainText("it has a body.");

  await page.getByTestId("older-commits").click();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/commits/develop\\?page=2&after=[0-9a-f]{40}$`)); // the cursor: the page's last sha
  await expect(rows).toHaveCount(7);
  await expect(rows.last().getByTestId("commit-title")).toHaveText("Initial commit");
  await expect(page.getByTestId("older-commits")).toHaveCount(0);
  await page.getByTestId("newer-commits").click();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/commits/develop$`));
  await expect(rows).toHaveCount(30);

  // the main branch has its own history, reached through the branch switcher
  await page.getByTestId("branch-switcher").click();
  await page.getByRole("option", { name: "main" }).click();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/commits/main$`));
  await expect(rows.first().getByTestId("commit-title")).toHaveText("Step 35");

  // a file's history from the blob view: only the commits that touched it
  await page.goto(`${repoUrl}/blob/develop/notes/log.md`);
  await page.getByTestId("file-view").getByTestId("history-link").click();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/commits/develop/notes/log\\.md$`));
  await expect(page.getByTestId("history-title")).toContainText("log.md");
  await expect(page).toHaveTitle(/^History for notes\/log\.md · /);
  await expect(rows).toHaveCount(3);
  await expect(rows.first().getByTestId("commit-title")).toHaveText("Step 30");
  await expect(page.getByTestId("history-pagination")).toHaveCount(0);

  // unknown paths and refs are 404 pages
  expect(await status(page, `${repoUrl}/commits/develop/no/such/file.txt`)).toBe(404);
  expect(await status(page, `${repoUrl}/commits/no-such-branch`)).toBe(404);

  await owner.context.close();
});

test("delete a repository after typing its full name", async ({ browser }) => {
  const owner = await newUser(browser, "del");
  const repo = "doomed";
  await createRepo(owner, repo, false);
  const fullName = `${owner.username}/${repo}`;
  const { page } = owner;

  await openSettings(page, owner.username, repo);
  await page.getByTestId("delete-repo").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(`Delete ${fullName}?`);
  const confirm = dialog.getByTestId("confirm-button");
  const typed = dialog.getByTestId("delete-confirm-input");
  await expect(typed).toBeFocused();
  await expect(confirm).toBeDisabled();
  await typed.fill(`${fullName}x`);
  await expect(confirm).toBeDisabled();
  await typed.fill(fullName.toUpperCase());
  await expect(confirm).toBeDisabled();
  await typed.fill(fullName);
  await expect(confirm).toBeEnabled();
  await confirm.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Your repositories" })).toBeVisible();
  await expect(page.getByRole("link", { name: fullName })).toHaveCount(0);
  expect(await status(page, `/${fullName}`)).toBe(404);
  expect(await status(page, `/${fullName}/settings`)).toBe(404);

  await owner.context.close();
});
