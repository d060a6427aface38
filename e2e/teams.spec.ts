/**
 * Teams in a real browser (docs/orgs.md "Teams"): an organization owner creates a team on the
 * organization's Teams page, adds a member and a private repository on the team's page; the member,
 * who could not see the repository under base permission none, now opens it; an outsider gets 404
 * on the teams pages; the repository's settings list the team. axe on the new pages.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("create a team, add a member and a repository; the member sees the private repository", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "teamowner", stamp);
  const member = await newUser(browser, baseURL!, "teammember", stamp);
  const outsider = await newUser(browser, baseURL!, "teamoutsider", stamp);
  const org = `tacme${stamp}`;
  await owner.trpc("orgs.create", { name: org });
  await owner.trpc("orgs.update", { name: org, basePermission: "none" });
  await owner.trpc("orgs.addMember", { name: org, username: member.username });
  await owner.trpc("repos.create", { owner: org, name: "plans", isPrivate: true });
  // base permission none: the member cannot see the private repository yet
  expect((await member.page.goto(`/${org}/plans`))?.status()).toBe(404);

  // the organization page links to its teams
  const page = owner.page;
  await page.goto(`/${org}`);
  await page.getByTestId("org-teams-link").click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/teams$`));
  await expect(page.getByTestId("teams-empty")).toBeVisible();
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await noAxeViolations(page, "organization teams page");

  // New team → the team's page
  await page.getByLabel("Team name").fill("Core Devs");
  await page.getByLabel("Default permission").selectOption("write");
  await page.getByTestId("create-team").click();
  await expect(page).toHaveURL(new RegExp(`/organizations/${org}/teams/core-devs$`));
  await expect(page.getByTestId("team-name-heading")).toHaveText("Core Devs");

  // add the member and the repository
  await page.getByLabel("Add a member").fill(member.username);
  await page.getByTestId("add-team-member").click();
  await expect(page.locator(`[data-testid='team-member-row'][data-username='${member.username}']`)).toBeVisible();
  // an outsider is refused with the server's message
  await page.getByLabel("Add a member").fill(outsider.username);
  await page.getByTestId("add-team-member").click();
  await expect(page.getByTestId("add-team-member-form")).toContainText("not a member of organization");
  await page.getByLabel("Add a repository").fill("plans");
  await expect(page.getByLabel("Permission", { exact: true })).toHaveValue("write");
  await page.getByTestId("add-team-repo").click();
  await expect(page.locator("[data-testid='team-repo-row'][data-name='plans']")).toContainText("write");
  await noAxeViolations(page, "team page");

  // the member now opens the private repository, and sees the team (read-only)
  await member.page.goto(`/${org}/plans`);
  await expect(member.page).toHaveURL(new RegExp(`/${org}/plans$`));
  await member.page.goto(`/organizations/${org}/teams/core-devs`);
  await expect(member.page.locator(`[data-testid='team-member-row'][data-username='${member.username}']`)).toBeVisible();
  await expect(member.page.getByTestId("add-team-member-form")).toHaveCount(0);

  // an outsider: 404 on the teams pages
  expect((await outsider.page.goto(`/organizations/${org}/teams`))?.status()).toBe(404);
  expect((await outsider.page.goto(`/organizations/${org}/teams/core-devs`))?.status()).toBe(404);

  // the repository's settings list the team's access
  await page.goto(`/${org}/plans/settings`);
  await expect(page.locator("[data-testid='team-access-row'][data-slug='core-devs']")).toContainText("write");

  await owner.context.close();
  await member.context.close();
  await outsider.context.close();
});
