/**
 * Forks in a real browser (issue #8): a second user forks a public repository from the Fork
 * button in the repository header, lands on the fork showing "forked from owner/name", and the
 * parent's header counts one fork.
 */
import { test, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

const PASSWORD = "correct horse battery";
const stamp = Date.now().toString(36);

interface User {
  username: string;
  context: BrowserContext;
  page: Page;
}

async function newUser(browser: Browser, prefix: string): Promise<User> {
  const username = `${prefix}${stamp}`;
  const context = await browser.newContext();
  const signUp = await context.request.post("/api/trpc/users.signUp", { data: { username, password: PASSWORD } });
  expect(signUp.status()).toBe(200);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  const signIn = await context.request.post("/api/auth/callback/credentials", { form: { csrfToken, username, password: PASSWORD, json: "true" } });
  expect(signIn.ok()).toBe(true);
  const page = await context.newPage();
  await page.goto("/");
  await expect(page.getByTestId("user-menu")).toContainText(username);
  return { username, context, page };
}

test("fork a repository from its header", async ({ browser }) => {
  const owner = await newUser(browser, "forkowner");
  const forker = await newUser(browser, "forker");
  const name = `upstream${stamp}`;
  const r = await owner.context.request.post("/api/trpc/repos.create", { headers: { origin: test.info().project.use.baseURL! }, data: { name, isPrivate: false } });
  expect(r.status()).toBe(200);

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
