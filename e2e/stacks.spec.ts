/**
 * Stacks in a real browser (Graphite-style; docs/pulls.md "Stacks in the browser"): branches pushed
 * with the real git CLI, each on top of the one before, their pull requests and a stack made over
 * the API; then
 *   - the stack navigator on a pull request lists the branches top first, marks the current one
 *     and links to the others and to the stack;
 *   - on the stacks page a stack is created (New stack dialog), reordered with the keyboard
 *     (Move up / Move down buttons, focus kept on the moved branch) and deleted after confirming;
 *   - at phone width in the dark theme, the New stack dialog and the reorder editor fit the
 *     screen and pass axe-core (the page itself is in e2e/a11y.spec.ts).
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";
import { newUser, type E2EUser } from "./session";

const stamp = Date.now().toString(36);
const name = `stacked${stamp}`;
let user: E2EUser;
let repoId = "";
const prs: Record<string, number> = {};

test.beforeAll(async ({ browser, baseURL }) => {
  user = await newUser(browser, baseURL!, "stacker", stamp);
  repoId = (await user.trpc("repos.create", { name })).id;
  const remote = user.remote(user.username, name, await user.token());
  const home = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-stack-home-"));
  const dir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-stack-"));
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(dir, "README.md", "# Stacked\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Initial commit");
  const tips: Record<string, string> = { main: git("rev-parse", "HEAD").trim() };
  // main ← auth/model ← auth/api ← auth/ui (a stack), and ui/a ← ui/b for the browser-made stack
  const chain = [
    ["auth/model", "main"],
    ["auth/api", "auth/model"],
    ["auth/ui", "auth/api"],
    ["ui/a", "main"],
    ["ui/b", "ui/a"],
  ];
  for (const [branch, from] of chain) {
    git("checkout", "--quiet", "-B", branch, from);
    writeFile(dir, `${branch}.txt`, `${branch}\n`);
    git("add", "-A");
    git("commit", "--quiet", "-m", `Work on ${branch}`);
    tips[branch] = git("rev-parse", "HEAD").trim();
  }
  git("push", "--quiet", remote, "main", ...chain.map(([b]) => b));
  for (const [branch, from] of chain.slice(0, 3)) {
    const pr = await user.trpc("pulls.create", {
      repoId,
      title: `Stacked ${branch}`,
      sourceBranch: branch,
      targetBranch: from,
      headSha: tips[branch],
      baseSha: tips[from],
    });
    prs[branch] = pr.number;
  }
  await user.trpc("stacks.create", { repoId, name: "Auth", baseBranch: "main", branches: ["auth/model", "auth/api", "auth/ui"] });
});

test.afterAll(async () => {
  await user?.context.close();
});

test("the stack navigator lists the branches top first, marks the current one and links to the others", async () => {
  const { page } = user;
  await page.goto(`/${user.username}/${name}/pulls/${prs["auth/api"]}`);
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  const nav = page.getByTestId("stack-navigator");
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("heading")).toHaveText("Stack · Auth");
  const items = nav.getByTestId("stack-branch");
  await expect(items).toHaveCount(3);
  await expect(items).toContainText([`#${prs["auth/ui"]} auth/ui`, `#${prs["auth/api"]} auth/api`, `#${prs["auth/model"]} auth/model`]);
  await expect(items.nth(1)).toHaveAttribute("aria-current", "step");
  await expect(items.nth(0)).not.toHaveAttribute("aria-current", /./);
  await expect(items.nth(2)).not.toHaveAttribute("aria-current", /./);
  await expect(nav).toContainText("main");

  // a link to the branch above: its pull request page, where that branch is the current one
  await items.nth(0).getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/pulls/${prs["auth/ui"]}$`));
  await expect(page.getByTestId("stack-navigator").getByTestId("stack-branch").nth(0)).toHaveAttribute("aria-current", "step");
  // and to the stack on the stacks page
  await page.getByTestId("stack-navigator-link").click();
  await expect(page).toHaveURL(new RegExp(`/${user.username}/${name}/pulls/stacks#stack-`));
  const card = page.getByTestId("stack-card").filter({ has: page.getByTestId("stack-name").getByText("Auth", { exact: true }) });
  await expect(card.getByTestId("stack-page-branch")).toHaveCount(3);
  await expect(card.getByTestId("stack-page-branch").first()).toHaveAttribute("data-branch", "auth/ui");
  await expect(card.getByTestId("stack-page-branch").first().getByTestId("pull-state-icon")).toHaveAttribute("data-look", "open");
});

test("create, reorder with the keyboard, and delete a stack on the stacks page", async () => {
  const { page } = user;
  await page.goto(`/${user.username}/${name}/pulls`);
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await page.getByTestId("stacks-link").click();
  await expect(page).toHaveURL(new RegExp(`/pulls/stacks$`));
  await expect(page.getByTestId("stack-card")).toHaveCount(1);

  // New stack: a name, the base, ui/a then ui/b on top; branches of the Auth stack are not offered
  await page.getByTestId("new-stack-button").click();
  const dialog = page.getByRole("dialog", { name: "New stack" });
  await expect(dialog).toBeVisible();
  await dialog.getByTestId("new-stack-name").fill("Interface");
  await expect(dialog.getByTestId("new-stack-base")).toHaveValue("main");
  const add = dialog.getByTestId("branch-order-add-select");
  await expect(add.locator("option")).toHaveText(["ui/a", "ui/b"]);
  await add.selectOption("ui/a");
  await dialog.getByTestId("branch-order-add").click();
  await add.selectOption("ui/b");
  await dialog.getByTestId("branch-order-add").click();
  await expect(dialog.getByTestId("branch-order-item")).toHaveCount(2);
  await expect(dialog.getByTestId("branch-order-item").first()).toHaveAttribute("data-branch", "ui/b");
  await dialog.getByTestId("new-stack-submit").click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId("stack-card").filter({ has: page.getByTestId("stack-name").getByText("Interface", { exact: true }) });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("stack-page-branch")).toHaveCount(2);
  await expect(card.getByTestId("stack-page-branch").nth(0)).toHaveAttribute("data-branch", "ui/b");
  await expect(card.getByTestId("stack-page-branch").nth(1)).toHaveAttribute("data-branch", "ui/a");
  // a branch without a pull request offers to open one against the branch below it
  await expect(card.getByTestId("stack-open-pull").first()).toHaveAttribute("href", new RegExp(`/compare/ui/a\\.\\.\\.ui/b$`));
  // the stacks are listed by name: Auth, Interface
  await expect(page.getByTestId("stack-name")).toHaveText(["Auth", "Interface"]);

  // Reorder with the keyboard: ui/a moves up to the top; focus stays on ui/a's controls
  await card.getByTestId("stack-reorder").click();
  const up = card.getByRole("button", { name: "Move ui/a up" });
  await up.focus();
  await page.keyboard.press("Enter");
  await expect(card.getByTestId("branch-order-item").first()).toHaveAttribute("data-branch", "ui/a");
  await expect(card.getByRole("button", { name: "Move ui/a down" })).toBeFocused();
  await expect(card.getByTestId("branch-order-status")).toHaveText("ui/a moved to position 2 of 2");
  await card.getByTestId("stack-reorder-save").click();
  await expect(card.getByTestId("stack-page-branch").nth(0)).toHaveAttribute("data-branch", "ui/a");
  await expect(card.getByTestId("stack-page-branch").nth(1)).toHaveAttribute("data-branch", "ui/b");
  const stacks = await user.context.request.get(`/api/trpc/stacks.list?input=${encodeURIComponent(JSON.stringify({ repoId }))}`);
  const saved = (await stacks.json()).result.data.find((s: { name: string }) => s.name === "Interface");
  expect(saved.branches.map((b: { branchName: string; position: number }) => [b.branchName, b.position])).toEqual([
    ["ui/b", 0],
    ["ui/a", 1],
  ]);

  // Delete: a confirmation first; Cancel keeps it, confirming removes it
  await card.getByTestId("stack-delete").click();
  const confirm = page.getByTestId("confirm-dialog");
  await expect(confirm).toContainText("Delete stack “Interface”?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(card).toBeVisible();
  await card.getByTestId("stack-delete").click();
  await page.getByTestId("confirm-button").click();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId("stack-name")).toHaveText(["Auth"]);
});

/** Serious or critical axe-core violations (WCAG 2.1 A/AA) and sideways scroll on `page`, as strings. */
async function problems(page: Page, what: string): Promise<string[]> {
  const out: string[] = [];
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (scrollWidth > innerWidth) out.push(`${what}: ${scrollWidth}px wide in a ${innerWidth}px viewport`);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  for (const v of results.violations) {
    if (v.impact === "serious" || v.impact === "critical")
      out.push(
        `${what}: ${v.id} [${v.impact}] ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join("; ")}`,
      );
  }
  return out;
}

test("at phone width in the dark theme, the New stack dialog and the reorder editor fit and pass axe-core", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({
    storageState: await user.context.storageState(),
    viewport: { width: 390, height: 844 },
    colorScheme: "dark",
  });
  await context.addCookies([{ name: "svc-theme", value: "dark", url: baseURL! }]);
  const page = await context.newPage();
  await page.goto(`/${user.username}/${name}/pulls/stacks`);
  await expect(page.locator("html[data-shortcuts='on']")).toBeAttached();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const failures: string[] = [];
  await page.getByTestId("new-stack-button").click();
  const dialog = page.getByRole("dialog", { name: "New stack" });
  await dialog.getByTestId("branch-order-add").click();
  await expect(dialog.getByTestId("branch-order-item")).toHaveCount(1);
  failures.push(...(await problems(page, "new stack dialog")));
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("new-stack-button")).toBeFocused(); // focus returns to the trigger
  await page.getByTestId("stack-reorder").first().click();
  await expect(page.getByTestId("branch-order-editor")).toBeVisible();
  failures.push(...(await problems(page, "reorder editor")));
  await context.close();
  expect(failures, failures.join("\n")).toEqual([]);
});
