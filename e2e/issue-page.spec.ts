/**
 * The issue page's Linear-style pickers and triage undo (docs/ui.md "Issues"), in a real browser
 * against the real server, with one user (sign-ups are rate-limited): due date through the calendar
 * popover with the keyboard, estimate menu, parent through the issue search by title, a relation
 * through the search by number, an @mention chosen from the autocomplete that renders as a profile
 * link, `#N` rendered as a link, an optimistic priority change rolled back when the server refuses
 * it (toast with the server's message), triage accept + Undo, and a keyboard-only journey.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { signUpIn } from "./session";
import { pressUntilMoved } from "./dnd";
import { AxeBuilder } from "./axe";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";

const owner = `ip${Date.now().toString(36)}`;
const repoName = "pickers";
const issues = `/${owner}/${repoName}/issues`;
const statePath = path.join(mkdtempSync(path.join(os.tmpdir(), "svc-issue-page-")), "state.json");
let repoId = "";

test.describe.configure({ mode: "serial" });
test.use({ storageState: statePath });

async function trpc(page: Page, procedure: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${procedure}`, { headers: { origin: test.info().project.use.baseURL! }, data });
  const body = await r.json();
  expect(r.status(), JSON.stringify(body)).toBe(200);
  return body.result.data;
}

/** The browser's local date plus `days`, as YYYY-MM-DD (the picker's "today" is the browser's). */
async function localDate(page: Page, days: number): Promise<string> {
  return page.evaluate((d) => {
    const now = new Date();
    const t = new Date(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate() + d));
    return t.toISOString().slice(0, 10);
  }, days);
}

/** WCAG 2 A/AA violations (axe-core) inside `selector`, as "rule: target" strings. */
async function axe(page: Page, selector: string): Promise<string[]> {
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).include(selector).analyze();
  return r.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`));
}

const toast = (page: Page, text: string | RegExp) => page.locator("[data-sonner-toast]").filter({ hasText: text });

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ storageState: undefined });
  const page = await context.newPage();
  await signUpIn(page.context(), owner);
  repoId = (await trpc(page, "repos.create", { name: repoName, isPrivate: false })).id;
  await context.storageState({ path: statePath });
  await context.close();
});

test("issue page: due date, estimate, parent, relation, mention, #N, rollback", async ({ page }) => {
  await page.goto("/");
  const work = await trpc(page, "issues.create", { repoId, title: "Wire the pickers" });
  const epic = await trpc(page, "issues.create", { repoId, title: "Quarterly epic for search" });
  const blocker = await trpc(page, "issues.create", { repoId, title: "Database migration" });
  await page.goto(`${issues}/${work.number}`);
  await page.waitForLoadState("networkidle");

  await test.step("due date: calendar popover with the keyboard, shown once", async () => {
    await expect(page.getByTestId("current-due")).toHaveText("No due date");
    await page.getByTestId("due-picker").focus();
    await page.keyboard.press("Enter");
    const today = await localDate(page, 0);
    await expect(page.locator(`[data-testid=due-day][data-date="${today}"]`)).toBeFocused();
    expect(await axe(page, "[data-testid=due-popover]")).toEqual([]);
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowDown");
    const target = await localDate(page, 8);
    await expect(page.locator(`[data-testid=due-day][data-date="${target}"]`)).toBeFocused();
    const saved = page.waitForResponse((r) => r.url().includes("issues.setDueDate"));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("due-popover")).toBeHidden();
    await expect(page.getByTestId("due-picker")).toBeFocused();
    await expect(page.getByTestId("current-due")).toHaveAttribute("data-date", target);
    expect((await saved).status()).toBe(200);
    // one display of the date: no date input, no "Set" button
    await expect(page.getByTestId("sidebar-due").locator("input")).toHaveCount(0);
    await expect(page.getByTestId("sidebar-due").getByTestId("due-date")).toHaveCount(1);
    // quick pick, then Clear
    await page.getByTestId("due-picker").click();
    const tomorrowSaved = page.waitForResponse((r) => r.url().includes("issues.setDueDate"));
    await page.getByTestId("due-tomorrow").click();
    await expect(page.getByTestId("current-due")).toHaveAttribute("data-date", await localDate(page, 1));
    expect((await tomorrowSaved).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId("current-due")).toHaveAttribute("data-date", await localDate(page, 1));
    await page.getByTestId("due-picker").click();
    await page.getByTestId("due-clear").click();
    await expect(page.getByTestId("current-due")).toHaveText("No due date");
    await expect(page.getByTestId("timeline")).toContainText(`${owner} removed the due date`);
  });

  await test.step("estimate: a menu of points with typeahead", async () => {
    await expect(page.getByTestId("current-estimate")).toHaveText("No estimate");
    await page.getByTestId("estimate-picker").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("estimate-picker-menu")).toBeVisible();
    await page.keyboard.type("5");
    await expect(page.getByTestId("estimate-option-5")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("current-estimate")).toHaveText("5 points");
    await expect(page.getByTestId("timeline")).toContainText(`${owner} set the estimate to 5 points`);
  });

  await test.step("parent: search by title", async () => {
    await page.getByTestId("set-parent").click();
    await page.getByTestId("issue-search-input").fill("quarterly EPIC");
    const option = page.getByTestId("issue-search-option");
    await expect(option).toHaveCount(1);
    await expect(option).toHaveAttribute("data-number", String(epic.number));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("parent-link")).toContainText(`#${epic.number}`);
    await expect(page.getByTestId("parent-link")).toContainText("Quarterly epic for search");
  });

  await test.step("relation: blocked by, searched by number", async () => {
    await page.getByTestId("relation-type").click();
    await page.getByTestId("relation-type-blocked_by").click();
    await expect(page.getByTestId("relation-type")).toHaveText(/Blocked by/);
    await page.getByTestId("add-relation-search").click();
    await page.getByTestId("issue-search-input").fill(`#${blocker.number}`);
    await expect(page.getByTestId("issue-search-option")).toHaveAttribute("data-number", String(blocker.number));
    await page.getByTestId("issue-search-option").click();
    await expect(page.getByTestId("rel-blocked-by").getByTestId("relation")).toHaveAttribute("data-number", String(blocker.number));
    await expect(page.getByTestId("timeline")).toContainText(`marked this as blocked by #${blocker.number}`);
  });

  await test.step("mention autocomplete and #N links in a comment", async () => {
    const input = page.getByTestId("comment-input");
    await input.click();
    await page.keyboard.type(`Thanks @${owner.slice(0, 3)}`);
    await expect(page.getByTestId("mention-list")).toBeVisible();
    await expect(page.getByTestId("mention-option")).toHaveCount(1);
    await expect(page.getByTestId("mention-option")).toContainText(owner);
    await expect(page.getByTestId("mention-option")).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("mention-list")).toBeHidden();
    await expect(input).toHaveValue(`Thanks @${owner} `);
    await page.keyboard.type(`see #${epic.number}, not \`#${blocker.number}\``);
    await page.getByTestId("comment-submit").click();
    const body = page.getByTestId("comment-body");
    await expect(body.locator(`a[href="/${owner}"]`)).toHaveText(`@${owner}`);
    await expect(body.locator(`a[href="${issues}/${epic.number}"]`)).toHaveText(`#${epic.number}`);
    await expect(body.locator("code")).toHaveText(`#${blocker.number}`);
    await expect(body.locator(`a[href="${issues}/${blocker.number}"]`)).toHaveCount(0);
    // the rendered #N leads to the issue
    await body.locator(`a[href="${issues}/${epic.number}"]`).click();
    await expect(page).toHaveURL(new RegExp(`${issues}/${epic.number}$`));
    await expect(page.getByTestId("issue-title-text")).toHaveText("Quarterly epic for search");
    await page.goBack();
    await expect(page.getByTestId("issue-title-text")).toHaveText("Wire the pickers");
  });

  await test.step("optimistic priority change rolled back when the server refuses it", async () => {
    await page.waitForLoadState("networkidle");
    await expect(page.getByTestId("current-priority")).toHaveText("No priority");
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/api/trpc/issues.updatePriority**", async (route) => {
      await held;
      await route.fulfill({
        status: 400,
        contentType: "application/json",
        body: JSON.stringify({
          error: {
            message: "priority is frozen for this release",
            code: -32600,
            data: { code: "BAD_REQUEST", httpStatus: 400, path: "issues.updatePriority" },
          },
        }),
      });
    });
    await page.getByTestId("priority-picker").click();
    await page.getByTestId("priority-option-urgent").click();
    // shown at once, while the request is still in flight
    await expect(page.getByTestId("current-priority")).toHaveText("Urgent");
    release();
    await expect(page.getByTestId("current-priority")).toHaveText("No priority");
    await expect(toast(page, "priority is frozen for this release")).toBeVisible();
    await page.unroute("**/api/trpc/issues.updatePriority**");
    // a real change sticks without flashing the old value before the refreshed page arrives
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seenPriorities: string[] }).seenPriorities = seen;
      const observe = () => seen.push(document.querySelector("[data-testid=current-priority]")?.textContent ?? "");
      new MutationObserver(observe).observe(document.querySelector("[data-testid=issue-sidebar]")!, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    });
    await page.getByTestId("priority-picker").click();
    await page.getByTestId("priority-option-high").click();
    await expect(page.getByTestId("current-priority")).toHaveText("High");
    await expect(page.getByTestId("timeline")).toContainText(`${owner} changed priority from No priority to High`);
    const seen = await page.evaluate(() => (window as unknown as { seenPriorities: string[] }).seenPriorities);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.slice(seen.indexOf("High"))).not.toContain("No priority");
    expect(await axe(page, "[data-testid=issue-page]")).toEqual([]);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await axe(page, "[data-testid=issue-page]")).toEqual([]);
    await page.emulateMedia({ colorScheme: "light" });
    await page.reload();
    await expect(page.getByTestId("current-priority")).toHaveText("High");
  });

  await test.step("mark as duplicate: search, confirm, closed as Canceled", async () => {
    await page.goto(`${issues}/${blocker.number}`);
    await page.getByTestId("mark-duplicate").click();
    await page.getByTestId("issue-search-input").fill("pickers");
    await expect(page.getByTestId("issue-search-option")).toHaveAttribute("data-number", String(work.number));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("canonical-choice")).toHaveText(`#${work.number} Wire the pickers`);
    await page.getByTestId("confirm-button").click();
    await expect(page.getByTestId("current-status")).toHaveText("Canceled");
    await expect(page.getByTestId("state-badge")).toHaveText("Closed as not planned");
    await expect(page.getByTestId("rel-duplicates").getByTestId("relation")).toHaveAttribute("data-number", String(work.number));
  });
});

test("triage: accept and decline show Undo, which puts the issue back into triage", async ({ page }) => {
  await page.goto("/");
  const a = await trpc(page, "issues.create", { repoId, title: "Reported crash", status: "triage" });
  const b = await trpc(page, "issues.create", { repoId, title: "Spam report", status: "triage" });
  await page.goto(`${issues}/triage`);
  await expect(page.getByTestId("triage")).toHaveAttribute("data-keys", "on"); // its key listener is in
  await expect(page.getByTestId("triage-item")).toHaveCount(2);
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", String(a.number));
  await page.waitForLoadState("networkidle");

  // accept with the keyboard, undo with the toast's button
  await page.keyboard.press("a");
  await expect(page.getByTestId("accept-confirm")).toBeFocused();
  await page.keyboard.press("Enter");
  const accepted = toast(page, `Accepted #${a.number} into Backlog`);
  await expect(accepted).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(1);
  await accepted.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, `#${a.number} is back in Triage`)).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(2);
  await page.goto(`${issues}/${a.number}`);
  await expect(page.getByTestId("current-status")).toHaveText("Triage");
  await expect(page.getByTestId("timeline")).toContainText(`${owner} changed status from Backlog to Triage`);

  // decline, then undo with `u`: back in triage, open, the reason comment gone
  await page.goto(`${issues}/triage`);
  await expect(page.getByTestId("triage")).toHaveAttribute("data-keys", "on"); // its key listener is in
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("j");
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", String(b.number));
  await page.keyboard.press("r");
  await page.getByTestId("reject-reason").fill("Not a bug");
  await page.keyboard.press("Enter");
  await expect(toast(page, `Declined #${b.number}`)).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(1);
  await page.locator("body").press("u");
  await expect(toast(page, `#${b.number} is back in Triage`)).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(2);
  await page.goto(`${issues}/${b.number}`);
  await expect(page.getByTestId("current-status")).toHaveText("Triage");
  await expect(page.getByTestId("state-badge")).toHaveText("Open");
  await expect(page.getByTestId("comment")).toHaveCount(0);

  // `d`: mark as a duplicate of an issue found by title; Undo removes the relation again
  await page.goto(`${issues}/triage`);
  await expect(page.getByTestId("triage")).toHaveAttribute("data-keys", "on"); // its key listener is in
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("j");
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", String(b.number));
  await page.keyboard.press("d");
  await page.getByTestId("issue-search-input").fill("reported crash");
  await expect(page.getByTestId("issue-search-option")).toHaveAttribute("data-number", String(a.number));
  await page.keyboard.press("Enter");
  const marked = toast(page, `Marked #${b.number} as a duplicate of #${a.number}`);
  await expect(marked).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(1);
  await marked.getByRole("button", { name: "Undo" }).click();
  await expect(toast(page, `#${b.number} is back in Triage`)).toBeVisible();
  await page.goto(`${issues}/${b.number}`);
  await expect(page.getByTestId("current-status")).toHaveText("Triage");
  await expect(page.getByTestId("rel-duplicates")).toHaveCount(0);
});

test("keyboard only: file an issue, change its status and priority, accept one in triage", async ({ page }) => {
  await page.goto("/");
  const queued = await trpc(page, "issues.create", { repoId, title: "Keyboard triage item", status: "triage" });
  await page.goto(`${issues}/new`);
  await expect(page.getByTestId("create-issue-submit")).toBeEnabled();

  await test.step("file an issue (priority and estimate from the form's menus)", async () => {
    await page.getByTestId("issue-priority-picker").focus();
    await page.keyboard.press("Enter");
    await page.keyboard.type("u");
    await expect(page.getByTestId("issue-priority-option-urgent")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("current-issue-priority")).toHaveText("Urgent");
    await page.keyboard.press("Tab"); // → due date
    await page.keyboard.press("Tab"); // → estimate
    await expect(page.getByTestId("estimate-picker")).toBeFocused();
    await page.keyboard.press("ArrowDown"); // Radix opens the menu on ArrowDown too
    await expect(page.getByTestId("estimate-picker-menu")).toBeVisible();
    await page.keyboard.type("3");
    await expect(page.getByTestId("estimate-option-3")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("current-estimate")).toHaveText("3 points");
    await page.getByTestId("issue-title-input").focus();
    await page.keyboard.type("Filed from the keyboard");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/issues\/\d+$/);
    await expect(page.getByTestId("issue-title-text")).toHaveText("Filed from the keyboard");
    await expect(page.getByTestId("current-priority")).toHaveText("Urgent");
    await expect(page.getByTestId("current-estimate")).toHaveText("3 points");
    await page.waitForLoadState("networkidle");
  });

  await test.step("change status and priority through the menus (typeahead)", async () => {
    await page.getByTestId("status-picker").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("status-picker-menu")).toBeVisible();
    await page.keyboard.type("in p");
    await expect(page.getByTestId("status-option-in_progress")).toBeFocused();
    // the sidebar shows a change before the server has it: the reload below waits for both saves
    const statusSaved = page.waitForResponse((r) => r.url().includes("issues.updateStatus"));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("current-status")).toHaveText("In Progress");
    await expect(page.getByTestId("status-picker")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByTestId("priority-picker")).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.type("h");
    await expect(page.getByTestId("priority-option-high")).toBeFocused();
    const prioritySaved = page.waitForResponse((r) => r.url().includes("issues.updatePriority"));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("current-priority")).toHaveText("High");
    expect((await statusSaved).status()).toBe(200);
    expect((await prioritySaved).status()).toBe(200);
    await page.reload();
    await expect(page.getByTestId("current-status")).toHaveText("In Progress");
    await expect(page.getByTestId("current-priority")).toHaveText("High");
  });

  await test.step("move it on the board with the keyboard, then Undo from the toast", async () => {
    const number = /\/issues\/(\d+)$/.exec(page.url())![1];
    await page.goto(`${issues}/board`);
    await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached(); // hydrated
    const column = (status: string) => page.locator(`[data-testid=board-column][data-status="${status}"]`);
    const card = (status: string) => column(status).locator(`[data-testid=board-card][data-number="${number}"]`);
    await card("in_progress").getByTestId("card-handle").focus();
    await page.keyboard.press("Space");
    await pressUntilMoved(page, "ArrowRight", card("in_review"));
    await page.keyboard.press("Space");
    const moved = toast(page, `Moved #${number} to In Review`);
    await expect(moved).toBeVisible();
    await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
    await moved.getByRole("button", { name: "Undo" }).focus();
    await page.keyboard.press("Enter");
    await expect(card("in_progress")).toBeVisible();
    await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
    await page.reload();
    await expect(card("in_progress")).toBeVisible();
  });

  await test.step("accept an issue in triage", async () => {
    await page.goto(`${issues}/triage`);
    await expect(page.getByTestId("triage")).toHaveAttribute("data-keys", "on"); // its key listener is in
    await page.waitForLoadState("networkidle");
    const item = page.locator(`[data-testid=triage-item][data-number="${queued.number}"]`);
    await expect(item).toBeVisible();
    for (let i = 0; i < 10 && (await page.getByTestId("triage-selected").getAttribute("data-number")) !== String(queued.number); i++)
      await page.keyboard.press("j");
    await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", String(queued.number));
    await page.keyboard.press("a");
    await page.keyboard.press("Enter");
    await expect(toast(page, `Accepted #${queued.number} into Backlog`)).toBeVisible();
    await expect(item).toHaveCount(0);
  });
});

test("edit in place: the description and a comment; a comment cannot be saved blank; Cancel asks before discarding", async ({ page }) => {
  await page.goto("/");
  const issue = await trpc(page, "issues.create", { repoId, title: "Edit me", body: "First draft" });
  await trpc(page, "issues.addComment", { repoId, number: issue.number, body: "A first comment" });
  await page.goto(`${issues}/${issue.number}`);
  await expect(page.getByTestId("issue-body-markdown")).toContainText("First draft");

  await page.getByTestId("edit-body").click();
  await page.getByTestId("body-input").fill("Second draft, **bold**");
  await page.getByTestId("body-save").click();
  await expect(page.getByTestId("issue-body-markdown").locator("strong")).toHaveText("bold");

  await page.getByTestId("edit-comment").click();
  await page.getByTestId("comment-edit-input").fill("   ");
  await expect(page.getByTestId("comment-edit-save")).toBeDisabled();
  await page.getByTestId("comment-edit-input").fill("An edited comment");
  await page.getByTestId("comment-edit-save").click();
  await expect(page.getByTestId("comment-body")).toContainText("An edited comment");

  // Cancel asks before throwing typed text away; unchanged text closes at once
  await page.getByTestId("edit-comment").click();
  await page.getByTestId("comment-edit-input-cancel").click();
  await expect(page.getByTestId("comment-edit-input")).toHaveCount(0);
  await expect(page.getByTestId("discard-dialog")).toHaveCount(0);
  await page.getByTestId("edit-comment").click();
  await page.getByTestId("comment-edit-input").fill("A reworded comment");
  await page.getByTestId("comment-edit-input-cancel").click();
  await expect(page.getByTestId("discard-dialog")).toBeVisible();
  await expect(page.getByTestId("discard-dialog")).toContainText("Discard your comment?");
  await expect(page.getByTestId("discard-keep")).toBeFocused();
  await page.getByTestId("discard-keep").click();
  await expect(page.getByTestId("discard-dialog")).toHaveCount(0);
  await expect(page.getByTestId("comment-edit-input")).toHaveValue("A reworded comment");
  await page.getByTestId("comment-edit-input-cancel").click();
  await page.getByTestId("discard-confirm").click();
  await expect(page.getByTestId("comment-edit-input")).toHaveCount(0);
  await expect(page.getByTestId("comment-body")).toContainText("An edited comment");
  await page.reload();
  await expect(page.getByTestId("issue-body-markdown")).toContainText("Second draft");
  await expect(page.getByTestId("comment-body")).toContainText("An edited comment");
});
