/**
 * The dashboard and tokens page (docs/ui.md "Pages", "Tokens page") in a real browser against the
 * real server: a collaborator's dashboard lists the owner's private repository with their role and
 * the issue assigned to them (linking to the issue page); "Created by you" and a stranger's
 * dashboard show their empty states, and never the private repository; the token form's expiry
 * defaults to 30 days.
 */
import { test, expect } from "./fixtures";
import { type Browser, type BrowserContext, type Page } from "@playwright/test";

const PASSWORD = "correct horse battery";
const stamp = Date.now().toString(36);

interface User {
  username: string;
  id: string;
  context: BrowserContext;
  page: Page;
}

const origin = () => ({ origin: test.info().project.use.baseURL! });

/** A fresh user signed in in its own browser context (users.signUp, then next-auth's credentials flow). */
async function newUser(browser: Browser, prefix: string): Promise<User> {
  const username = `${prefix}${stamp}`;
  const context = await browser.newContext();
  const signUp = await context.request.post("/api/trpc/users.signUp", { headers: origin(), data: { username, password: PASSWORD } });
  expect(signUp.status()).toBe(200);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  const signIn = await context.request.post("/api/auth/callback/credentials", {
    headers: origin(),
    form: { csrfToken, username, password: PASSWORD, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
  const me = await context.request.get("/api/trpc/users.me");
  expect(me.status()).toBe(200);
  const id = ((await me.json()) as { result: { data: { id: string } } }).result.data.id;
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByTestId("user-menu")).toContainText(username);
  return { username, id, context, page };
}

/** Calls a tRPC mutation with the context's session cookie and this site's Origin; returns its data. */
async function mutate<T>(user: User, path: string, data: unknown): Promise<T> {
  const r = await user.context.request.post(`/api/trpc/${path}`, { headers: origin(), data });
  expect(r.status(), `${path}: ${await r.text()}`).toBe(200);
  return ((await r.json()) as { result: { data: T } }).result.data;
}

test("a collaborator's dashboard lists the shared repository and the issues assigned to them", async ({ browser }) => {
  const owner = await newUser(browser, "dashown");
  const collab = await newUser(browser, "dashcol");
  const stranger = await newUser(browser, "dashstr");

  const repo = await mutate<{ id: string }>(owner, "repos.create", { name: "shared-work", isPrivate: true });
  await mutate(owner, "repos.addCollaborator", { repoId: repo.id, username: collab.username, role: "write" });
  const issue = await mutate<{ number: number }>(owner, "issues.create", {
    repoId: repo.id,
    title: "Ship the dashboard",
    assigneeId: collab.id,
  });

  // the collaborator: the repository with their role, the assigned issue, no issues created yet
  const page = collab.page;
  await page.goto("/");
  const list = page.getByTestId("repo-list");
  await expect(list).toContainText(`${owner.username}/shared-work`);
  await expect(list.getByTestId("repo-role")).toHaveText("Write");
  const assigned = page.getByTestId("assigned-issues");
  await expect(assigned).toContainText("Ship the dashboard");
  await expect(assigned).toContainText(`${owner.username}/shared-work#${issue.number}`);
  await expect(page.getByTestId("created-issues-empty")).toBeVisible();
  await assigned.getByRole("link", { name: "Ship the dashboard" }).click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}/shared-work/issues/${issue.number}$`));

  // an issue the collaborator opens shows under "Created by you"
  await mutate(collab, "issues.create", { repoId: repo.id, title: "Follow-up from the collaborator" });
  await page.goto("/");
  await expect(page.getByTestId("created-issues")).toContainText("Follow-up from the collaborator");

  // the owner sees the repository as Owner; the stranger sees empty states, never the private repository
  await owner.page.goto("/");
  await expect(owner.page.getByTestId("repo-list").getByTestId("repo-role")).toHaveText("Owner");
  await stranger.page.goto("/");
  await expect(stranger.page.getByTestId("repos-empty")).toBeVisible();
  await expect(stranger.page.getByTestId("assigned-issues-empty")).toBeVisible();
  await expect(stranger.page.getByTestId("created-issues-empty")).toBeVisible();
  await expect(stranger.page.locator("body")).not.toContainText("shared-work");

  for (const u of [owner, collab, stranger]) await u.context.close();
});

test("the token form's expiry defaults to 30 days", async ({ browser }) => {
  const user = await newUser(browser, "dashtok");
  await user.page.goto("/settings/tokens");
  await expect(user.page.getByTestId("token-expiry")).toHaveValue("30");
  await user.context.close();
});
