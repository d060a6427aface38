/**
 * Organizations in a real browser (docs/orgs.md "Pages"): a user creates an organization on the
 * New organization page, adds a member on its settings page, creates a private repository under it
 * with the New repository page's owner picker; the member sees it on the organization's page and
 * opens it; an outsider gets 404. axe on the new pages.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("create an organization, add a member, create a private repository the member sees and an outsider does not", async ({
  browser,
  baseURL,
}) => {
  const owner = await newUser(browser, baseURL!, "orgowner", stamp);
  const member = await newUser(browser, baseURL!, "orgmember", stamp);
  const outsider = await newUser(browser, baseURL!, "orgoutsider", stamp);
  const org = `acme${stamp}`;
  const page = owner.page;

  // New organization page
  await page.goto("/organizations/new");
  await noAxeViolations(page, "new organization page");
  await page.getByLabel("Organization name").fill(org);
  await page.getByLabel(/Display name/).fill("Acme Inc.");
  await page.getByTestId("create-org-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${org}$`));
  await expect(page.getByTestId("org-name")).toHaveText("Acme Inc.");
  await expect(page.getByTestId("org-person")).toHaveCount(1);
  await noAxeViolations(page, "organization page");

  // settings: add the member, let members write
  await page.getByTestId("org-settings-link").click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/settings$`));
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await page.getByTestId("new-member-username").fill(member.username);
  await page.getByTestId("add-member").click();
  await expect(page.locator(`[data-testid='member-row'][data-username='${member.username}']`)).toBeVisible();
  await page.getByTestId("org-base-permission").selectOption("write");
  await page.getByTestId("org-settings-save").click();
  await expect(page.getByTestId("org-settings-saved")).toBeVisible();
  await noAxeViolations(page, "organization settings page");

  // New repository page: the owner picker lists the organization
  await page.goto(`/new?owner=${org}`);
  await expect(page.getByTestId("new-repo-owner")).toHaveValue(org);
  await expect(page.getByTestId("new-repo-owner").locator("option")).toHaveText([owner.username, org]);
  await noAxeViolations(page, "new repository page with the owner picker");
  await page.getByLabel("Repository name").fill("plans");
  await page.getByRole("radio", { name: /Private/ }).check();
  await page.getByTestId("create-repo-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${org}/plans$`));

  // the member sees the private repository on the organization's page and opens it
  await member.page.goto(`/${org}`);
  const repo = member.page.locator("[data-testid='profile-repo'][data-name='plans']");
  await expect(repo).toBeVisible();
  await repo.getByRole("link", { name: "plans" }).click();
  await expect(member.page).toHaveURL(new RegExp(`/${org}/plans$`));

  // an outsider: the organization's page lists no private repository, the repository is a 404
  await outsider.page.goto(`/${org}`);
  await expect(outsider.page.getByTestId("profile-repos-empty")).toBeVisible();
  expect((await outsider.page.goto(`/${org}/plans`))?.status()).toBe(404);
  expect((await outsider.page.goto(`/organizations/${org}/settings`))?.status()).toBe(404);

  await owner.context.close();
  await member.context.close();
  await outsider.context.close();
});
