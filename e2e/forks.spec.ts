/**
 * Forks in a real browser (issue #8): a second user forks a public repository from the Fork
 * button in the repository header, lands on the fork showing "forked from owner/name", and the
 * parent's header counts one fork.
 */
import { test, expect } from "@playwright/test";
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
