/**
 * Transferring a repository in a real browser (docs/orgs.md "Transferring a repository"): the
 * owner opens Settings → Danger zone → Transfer, picks their organization, types the name, lands
 * on the repository at its new path; the old URL (and a sub-page of it) answers a permanent
 * redirect to the new one. axe on the settings page with the transfer dialog open.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("transfer a repository to an organization; the old path redirects", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "xferowner", stamp);
  const org = `xfer${stamp}`;
  await owner.trpc("orgs.create", { name: org });
  await owner.trpc("repos.create", { name: "moving", isPrivate: true });
  const page = owner.page;

  await page.goto(`/${owner.username}/moving/settings`);
  await page.getByTestId("transfer-repo").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId("transfer-owner").locator("option")).toHaveText([org]);
  await noAxeViolations(page, "repository settings with the transfer dialog");
  await expect(dialog.getByTestId("confirm-button")).toBeDisabled();
  await page.getByTestId("transfer-confirm-input").fill("moving");
  await dialog.getByTestId("confirm-button").click();
  await expect(page).toHaveURL(new RegExp(`/${org}/moving$`));

  // the old path, and a page under it, redirect permanently to the new one
  const old = await owner.context.request.get(`/${owner.username}/moving/issues`, { maxRedirects: 0 });
  expect(old.status()).toBe(308);
  expect(old.headers()["location"]).toBe(`/${org}/moving/issues`);
  await page.goto(`/${owner.username}/moving`);
  await expect(page).toHaveURL(new RegExp(`/${org}/moving$`));

  // someone who cannot read the private repository gets the 404, not a redirect
  const outsider = await newUser(browser, baseURL!, "xferout", stamp);
  expect((await outsider.context.request.get(`/${owner.username}/moving`, { maxRedirects: 0 })).status()).toBe(404);

  await owner.context.close();
  await outsider.context.close();
});
