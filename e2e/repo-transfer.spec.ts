/**
 * Transferring a repository in a real browser (docs/orgs.md "Transferring a repository"): the
 * owner opens Settings → Danger zone → Transfer, picks their organization, types the name, lands
 * on the repository at its new path; the old URL (and a sub-page of it) answers a permanent
 * redirect to the new one. axe on the settings page with the transfer dialog open. Organization
 * settings: the token policy, removing a member after a confirmation; the organization page in pages.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser, trpcQuery } from "./session";

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

test("organization: token policy in settings, member removal after confirming, repository list paged", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "polowner", stamp);
  const member = await newUser(browser, baseURL!, "polmember", stamp);
  const org = `pol${stamp}`;
  await owner.trpc("orgs.create", { name: org });
  await owner.trpc("orgs.addMember", { name: org, username: member.username });
  const page = owner.page;

  // token policy
  await page.goto(`/organizations/${org}/settings`);
  await page.getByTestId("org-token-policy-on").check();
  await page.getByTestId("org-token-max-days").fill("30");
  await page.getByTestId("org-settings-save").click();
  await expect(page.getByTestId("org-settings-saved")).toBeVisible();
  expect(((await trpcQuery(owner, "orgs.get", { name: org })) as { tokenMaxDays: number | null }).tokenMaxDays).toBe(30);
  await noAxeViolations(page, "organization settings with the token policy");

  // removing a member asks first; Cancel keeps them
  const row = page.locator(`[data-testid='member-row'][data-username='${member.username}']`);
  await row.getByTestId("member-remove").click();
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText(`Remove ${member.username} from ${org}?`);
  await noAxeViolations(page, "member removal dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row).toBeVisible();
  await row.getByTestId("member-remove").click();
  await dialog.getByTestId("confirm-button").click();
  await expect(row).toHaveCount(0);

  // 31 repositories: 30 on the first page, the last one on the second
  for (let i = 0; i < 31; i++) await owner.trpc("repos.create", { owner: org, name: `r${String(i).padStart(2, "0")}` });
  await page.goto(`/${org}`);
  await expect(page.getByTestId("profile-repo")).toHaveCount(30);
  await page.getByTestId("repo-pages").getByRole("link", { name: /Next/ }).click();
  await expect(page).toHaveURL(new RegExp(`/${org}\\?page=2$`));
  await expect(page.getByTestId("profile-repo")).toHaveCount(1);
  await expect(page.getByTestId("repo-pages").getByRole("link", { name: /Previous/ })).toBeVisible();

  await owner.context.close();
  await member.context.close();
});
