/**
 * The pages users expect (docs/ui.md "Pages") in a real browser against the real server, with two users
 * signed up once for the whole file (sign-ups are rate-limited): account settings (name, email,
 * avatar preview, password change, then signing in with the new password), the profile page
 * (a stranger sees only public repositories; unknown users are a 404), labels and templates
 * managed from repository settings, and projects and cycles with their progress.
 */
import { test, expect } from "./fixtures";
import { type Browser, type BrowserContext, type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";

const PASSWORD = "correct horse battery";
const NEW_PASSWORD = "a brand new passphrase";
const stamp = Date.now().toString(36);

interface User {
  username: string;
  password: string;
  context: BrowserContext;
  page: Page;
}

const origin = () => ({ origin: test.info().project.use.baseURL! });

async function signIn(context: BrowserContext, username: string, password: string) {
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  const r = await context.request.post("/api/auth/callback/credentials", {
    headers: origin(),
    form: { csrfToken, username, password, json: "true" },
  });
  expect(r.ok()).toBe(true);
}

/** A fresh user signed in within its own browser context. */
async function newUser(browser: Browser, prefix: string): Promise<User> {
  const username = `${prefix}${stamp}`;
  const context = await browser.newContext();
  const signUp = await context.request.post("/api/trpc/users.signUp", { headers: origin(), data: { username, password: PASSWORD } });
  expect(signUp.status(), await signUp.text()).toBe(200);
  await signIn(context, username, PASSWORD);
  return { username, password: PASSWORD, context, page: await context.newPage() };
}

/** A tRPC mutation with the context's session cookie; returns its data. */
async function mutate<T>(user: User, path: string, data: unknown): Promise<T> {
  const r = await user.context.request.post(`/api/trpc/${path}`, { headers: origin(), data });
  expect(r.status(), `${path}: ${await r.text()}`).toBe(200);
  return ((await r.json()) as { result: { data: T } }).result.data;
}

let owner: User;
let stranger: User;
let repo: { id: string; name: string };

test.beforeAll(async ({ browser }) => {
  owner = await newUser(browser, "pgown");
  stranger = await newUser(browser, "pgstr");
  repo = await mutate(owner, "repos.create", { name: "planner" });
  await mutate(owner, "repos.create", { name: "secret-plans", isPrivate: true });
});

test.afterAll(async () => {
  await owner?.context.close();
  await stranger?.context.close();
});

test("account settings: /settings lands on Account; name, email and password change; sign in with the new password", async ({
  browser,
}) => {
  const page = owner.page;
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/settings\/account$/);
  await expect(page.getByTestId("settings-nav-account")).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("avatar-preview").getByTestId("avatar").first()).toHaveText(owner.username.slice(0, 1));
  // the preview has the colour the top bar's avatar has (avatarHue of the username)
  const bg = (l: ReturnType<Page["getByTestId"]>) => l.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(await bg(page.getByTestId("avatar-preview").getByTestId("avatar").first())).toBe(
    await bg(page.getByTestId("user-menu").getByTestId("avatar")),
  );

  await page.getByTestId("profile-name").fill("Grace Hopper");
  await page.getByTestId("profile-email").fill(`Grace.${stamp}@Example.com`);
  await page.getByTestId("save-profile").click();
  await expect(page.getByText("Profile saved")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("profile-name")).toHaveValue("Grace Hopper");
  await expect(page.getByTestId("profile-email")).toHaveValue(`grace.${stamp}@example.com`);

  // the stranger cannot take the same address in another case
  await stranger.page.goto("/settings/account");
  await stranger.page.getByTestId("profile-email").fill(`GRACE.${stamp}@example.com`);
  await stranger.page.getByTestId("save-profile").click();
  await expect(stranger.page.getByTestId("field-error")).toHaveText("That email is already in use");

  // a second browser of the owner's, to be signed out by the change
  const other = await browser.newContext();
  await signIn(other, owner.username, PASSWORD);
  expect((await other.request.get("/api/trpc/users.me")).status()).toBe(200);

  // wrong current password: refused, nothing changes
  await page.getByTestId("current-password").fill("not my password");
  await page.getByTestId("new-password").fill(NEW_PASSWORD);
  await page.getByTestId("confirm-password").fill(NEW_PASSWORD);
  await page.getByTestId("change-password").click();
  await expect(page.getByTestId("settings-password").getByTestId("field-error")).toHaveText("Current password is incorrect");

  await page.getByTestId("current-password").fill(PASSWORD);
  await page.getByTestId("change-password").click();
  await expect(page.getByText(/Password changed\. 1 other session was signed out/)).toBeVisible();
  // this browser is still signed in, the other one is not
  await page.reload();
  await expect(page.getByTestId("user-menu")).toBeVisible();
  expect((await other.request.get("/api/trpc/users.me")).status()).toBe(401);
  await other.close();

  // a new browser signs in through the form with the new password, and not with the old one
  const fresh = await browser.newContext();
  const p = await fresh.newPage();
  await p.goto("/signin");
  await p.getByLabel("Username").fill(owner.username);
  await p.getByLabel("Password").fill(PASSWORD);
  await p.getByTestId("signin-submit").click();
  await expect(p.getByTestId("form-error")).toBeVisible();
  await p.getByLabel("Password").fill(NEW_PASSWORD);
  await p.getByTestId("signin-submit").click();
  await expect(p.getByTestId("user-menu")).toContainText(owner.username);
  await fresh.close();
  owner.password = NEW_PASSWORD;
});

test("profile: a stranger sees only public repositories; the owner sees all; unknown users are a 404", async ({ browser }) => {
  await stranger.page.goto(`/${owner.username}`);
  await expect(stranger.page.getByTestId("profile-username")).toHaveText(owner.username);
  await expect(stranger.page.getByTestId("profile-name")).toHaveText("Grace Hopper");
  await expect(stranger.page.getByTestId("profile-repo")).toHaveCount(1);
  await expect(stranger.page.getByTestId("profile-repos")).toContainText("planner");
  await expect(stranger.page.getByTestId("profile-repos")).not.toContainText("secret-plans");
  await expect(stranger.page.getByTestId("edit-profile")).toHaveCount(0);
  await expect(stranger.page.locator("body")).not.toContainText("example.com");

  const anon = await browser.newContext();
  const a = await anon.newPage();
  await a.goto(`/${owner.username.toUpperCase()}`);
  await expect(a.getByTestId("profile-repo")).toHaveCount(1);
  expect((await a.goto("/no-such-user-here-xyz"))!.status()).toBe(404);
  await expect(a.getByTestId("not-found")).toBeVisible();
  await anon.close();

  await owner.page.goto(`/${owner.username}`);
  await expect(owner.page.getByTestId("profile-repo")).toHaveCount(2);
  await expect(owner.page.getByTestId("profile-repos")).toContainText("secret-plans");
  await expect(owner.page.getByTestId("edit-profile")).toBeVisible();
});

test("labels and templates: create, edit and delete from repository settings", async () => {
  const page = owner.page;
  const base = `/${owner.username}/${repo.name}/settings`;
  await page.goto(base);
  await page.getByTestId("settings-nav-labels").click();
  await expect(page).toHaveURL(new RegExp(`${base}/labels$`));
  await expect(page.getByTestId("no-labels")).toBeVisible();

  // create with a preset colour
  await page.getByTestId("new-label").click();
  await page.getByTestId("label-name").fill("needs-design");
  await page.getByTestId("label-preset-5319e7").click();
  await expect(page.getByTestId("label-color")).toHaveValue("#5319e7");
  await page.getByTestId("label-description").fill("UX work first");
  await page.getByTestId("label-save").click();
  const row = page.locator('[data-testid="label-row"][data-name="needs-design"]');
  await expect(row).toBeVisible();
  await expect(row).toContainText("#5319e7");
  await expect(row).toContainText("UX work first");

  // a duplicate name is refused on the field
  await page.getByTestId("new-label").click();
  await page.getByTestId("label-name").fill("Needs-Design");
  await page.getByTestId("label-save").click();
  await expect(page.getByTestId("label-dialog").getByTestId("field-error")).toContainText("exists");
  await page.keyboard.press("Escape");

  // edit: rename and a typed colour
  await row.getByTestId("edit-label").click();
  await page.getByTestId("label-name").fill("design");
  await page.getByTestId("label-color").fill("0e8a16");
  await page.getByTestId("label-save").click();
  const renamed = page.locator('[data-testid="label-row"][data-name="design"]');
  await expect(renamed).toContainText("#0e8a16");
  await expect(page.locator('[data-testid="label-row"][data-name="needs-design"]')).toHaveCount(0);

  // a second label for the template, then templates
  await page.getByTestId("new-label").click();
  await page.getByTestId("label-name").fill("bug");
  await page.getByTestId("label-save").click();
  await expect(page.locator('[data-testid="label-row"][data-name="bug"]')).toBeVisible();

  await page.getByTestId("settings-nav-templates").click();
  await expect(page.getByTestId("no-templates")).toBeVisible();
  await page.getByTestId("new-template").click();
  await page.getByTestId("template-name").fill("Bug report");
  await page.getByTestId("template-title").fill("[Bug]: ");
  await page.getByTestId("template-body").fill("## Steps\n\n1. ");
  await page.getByTestId("template-labels").getByText("bug").click();
  await page.getByTestId("template-priority").click();
  await page.getByTestId("template-priority-option-high").click();
  await page.getByTestId("template-save").click();
  const t = page.locator('[data-testid="template-row"][data-name="Bug report"]');
  await expect(t).toContainText("[Bug]:");
  await expect(t).toContainText("High");
  await expect(t.getByTestId("label-chip")).toHaveText("bug");

  await t.getByTestId("edit-template").click();
  await expect(page.getByTestId("template-name")).toHaveValue("Bug report");
  await page.getByTestId("template-name").fill("Defect report");
  await page.getByTestId("template-save").click();
  const t2 = page.locator('[data-testid="template-row"][data-name="Defect report"]');
  await expect(t2).toBeVisible();

  // the issue form offers it
  const templates = await owner.context.request.get(
    `/api/trpc/issues.listTemplates?input=${encodeURIComponent(JSON.stringify({ repoId: repo.id }))}`,
  );
  expect(((await templates.json()) as { result: { data: { name: string; labels: string[]; priority: string }[] } }).result.data).toEqual([
    expect.objectContaining({ name: "Defect report", labels: ["bug"], priority: "high" }),
  ]);

  await t2.getByTestId("delete-template").click();
  await page.getByTestId("confirm-button").click();
  await expect(page.getByTestId("no-templates")).toBeVisible();

  await page.getByTestId("settings-nav-labels").click();
  await page.locator('[data-testid="label-row"][data-name="design"]').getByTestId("delete-label").click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("design");
  await page.getByTestId("confirm-button").click();
  await expect(page.locator('[data-testid="label-row"][data-name="design"]')).toHaveCount(0);
  await expect(page.getByTestId("labels-count")).toHaveText("1 label");
});

test("projects and cycles: create from the pages and see progress", async () => {
  const page = owner.page;
  await page.goto(`/${owner.username}/${repo.name}/issues`);
  await page.getByTestId("issues-nav-projects").click();
  await expect(page.getByTestId("no-projects")).toBeVisible();
  await page.getByTestId("new-project").click();
  await page.getByTestId("project-name").fill("Launch");
  await page.getByTestId("project-save").click();
  await expect(page.getByTestId("project-header")).toContainText("Launch");
  await expect(page.getByTestId("progress-text")).toHaveText("0/0 done · 0%");

  await page.getByTestId("issues-nav-cycles").click();
  await expect(page.getByTestId("no-cycles")).toBeVisible();
  await page.getByTestId("new-cycle").click();
  await page.getByTestId("cycle-name").fill("Sprint one");
  const today = new Date().toISOString().slice(0, 10);
  await expect(page.getByTestId("cycle-start")).toHaveValue(today);
  await page.getByTestId("cycle-save").click();
  const cycle = page.locator('[data-testid="cycle-row"][data-number="1"]');
  await expect(cycle).toHaveAttribute("data-timing", "current");
  await expect(cycle.getByTestId("current-cycle")).toContainText("Current");

  // four issues in the project and cycle: two done, one canceled, one open → 2/3 done
  const numbers: number[] = [];
  for (const title of ["one", "two", "three", "four"])
    numbers.push(
      (await mutate<{ number: number }>(owner, "issues.create", { repoId: repo.id, title, project: "Launch", cycle: 1 })).number,
    );
  await mutate(owner, "issues.updateStatus", { repoId: repo.id, number: numbers[0], status: "done" });
  await mutate(owner, "issues.updateStatus", { repoId: repo.id, number: numbers[1], status: "done" });
  await mutate(owner, "issues.updateStatus", { repoId: repo.id, number: numbers[2], status: "canceled" });

  await page.reload();
  await expect(cycle.getByTestId("progress-text")).toHaveText("2/3 done · 67%");
  await expect(cycle.getByRole("progressbar")).toHaveAttribute("aria-valuenow", "67");

  await cycle.getByRole("link", { name: "Cycle 1" }).click();
  await expect(page.getByTestId("cycle-header")).toContainText("Sprint one");
  await expect(page.getByTestId("cycle-header").getByTestId("progress-text")).toHaveText("2/3 done · 67%");
  await expect(page.locator('section[aria-labelledby="cycle-open"] [data-testid="planning-issue"]')).toHaveCount(1);
  await expect(page.locator('section[aria-labelledby="cycle-closed"] [data-testid="planning-issue"]')).toHaveCount(3);
  // put an issue that is in no cycle into this one from the page, then take it out (and undo)
  const loose = await mutate<{ number: number }>(owner, "issues.create", { repoId: repo.id, title: "unplanned work" });
  await page.reload();
  await page.getByTestId("add-issue").click();
  await page.getByRole("option", { name: /unplanned work/ }).click();
  await expect(page.getByTestId("cycle-header").getByTestId("progress-text")).toHaveText("2/4 done · 50%");
  const row = page.locator(`[data-testid="planning-issue"][data-number="${loose.number}"]`);
  await row.getByTestId("remove-from-plan").click();
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId("cycle-header").getByTestId("progress-text")).toHaveText("2/3 done · 67%");
  expect((await page.goto(`/${owner.username}/${repo.name}/cycles/99`))!.status()).toBe(404);

  await page.goto(`/${owner.username}/${repo.name}/cycles`);
  await page.getByTestId("issues-nav-projects").click();
  const project = page.locator('[data-testid="project-row"][data-name="Launch"]');
  await expect(project.getByTestId("progress-text")).toHaveText("2/3 done · 67%");
  await expect(project).toContainText("4 issues · 1 open");
  await project.getByRole("link", { name: "Launch" }).click();
  await expect(page.getByTestId("planning-issue")).toHaveCount(4);
  await expect(page.locator('section[aria-labelledby="project-open"] [data-testid="planning-issue"]')).toHaveCount(1);

  // a stranger reads the pages but gets no create buttons
  await stranger.page.goto(`/${owner.username}/${repo.name}/cycles`);
  await expect(stranger.page.getByTestId("cycle-row")).toHaveCount(1);
  await expect(stranger.page.getByTestId("new-cycle")).toHaveCount(0);
  await stranger.page.goto(`/${owner.username}/${repo.name}/projects`);
  await expect(stranger.page.getByTestId("new-project")).toHaveCount(0);
});

test("settings navs work at phone width without horizontal scroll", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await owner.context.storageState() });
  const page = await context.newPage();
  for (const path of [
    "/settings/account",
    `/${owner.username}/${repo.name}/settings/labels`,
    `/${owner.username}/${repo.name}/cycles`,
    `/${owner.username}`,
  ]) {
    await page.goto(path);
    await expect(page.getByTestId("user-menu")).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
  await page.goto(`/${owner.username}/${repo.name}/settings`);
  await page.getByTestId("settings-nav-templates").click();
  await expect(page).toHaveURL(/\/settings\/templates$/);
  await context.close();
});

test("the new pages and dialogs have no WCAG A/AA violations (axe-core), in light and dark themes", async ({ browser }) => {
  const paths = [
    "/settings/account",
    `/${owner.username}`,
    `/${owner.username}/${repo.name}/settings/labels`,
    `/${owner.username}/${repo.name}/settings/templates`,
    `/${owner.username}/${repo.name}/projects`,
    `/${owner.username}/${repo.name}/cycles`,
    `/${owner.username}/${repo.name}/cycles/1`,
  ];
  for (const colorScheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ colorScheme, storageState: await owner.context.storageState() });
    const page = await context.newPage();
    const check = async (what: string) => {
      const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
      expect(
        result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `${colorScheme} ${what}`,
      ).toEqual([]);
    };
    for (const path of paths) {
      await page.goto(path);
      await expect(page.getByTestId("user-menu")).toBeVisible();
      await check(path);
    }
    await page.goto(`/${owner.username}/${repo.name}/settings/labels`);
    await page.getByTestId("new-label").click();
    await expect(page.getByTestId("label-dialog")).toBeVisible();
    await check("label dialog");
    await page.keyboard.press("Escape");
    await page.goto(`/${owner.username}/${repo.name}/cycles`);
    await page.getByTestId("new-cycle").click();
    await check("cycle dialog");
    await page.keyboard.press("Escape");
    await page.goto(`/${owner.username}/${repo.name}/cycles/1`);
    await page.getByTestId("add-issue").click();
    await check("add issue picker");
    await context.close();
  }
});
