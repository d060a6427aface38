/**
 * The issue tracker in a real browser against the real server: sign up → create a repository →
 * labels (tRPC with the session cookie) → create issues through the form → filter the list, save it as a view →
 * change status, priority and labels on the issue page, comment, read the activity timeline →
 * drag a card to another column on the board (mouse, then keyboard) and see the status
 * persisted after a reload → a second user (read-only on the public repository) files an issue that lands in
 * triage → the owner sets its priority, assignee and labels and accepts it with the keyboard, and
 * accepts a second one into Todo with the status picker's key → close and reopen.
 */
import { pressUntilMoved } from "./dnd";
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { signUpIn } from "./session";

const stamp = Date.now().toString(36);
const owner = `iss${stamp}`;
const reporter = `rep${stamp}`;
const repoName = "tracker";
const issues = `/${owner}/${repoName}/issues`;

async function trpc(page: Page, path: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${path}`, { headers: { origin: test.info().project.use.baseURL! }, data });
  const body = await r.json();
  expect(r.status(), JSON.stringify(body)).toBe(200);
  return body.result.data;
}

async function createIssue(page: Page, fields: { title: string; body?: string; label?: string; priority?: string }) {
  await page.goto(`${issues}/new`);
  await expect(page.getByTestId("create-issue-submit")).toBeEnabled();
  await page.getByTestId("issue-title-input").fill(fields.title);
  if (fields.body) {
    await page.getByTestId("issue-body-input").fill(fields.body);
    await page.getByTestId("issue-body-input-preview-tab").click();
    await expect(page.getByTestId("issue-body-input-preview")).toBeVisible();
  }
  if (fields.label) {
    await page.getByTestId("new-issue-labels").click();
    await page.getByTestId("label-option").filter({ hasText: fields.label }).click();
    await expect(page.getByTestId("label-option").filter({ hasText: fields.label })).toHaveAttribute("data-checked", "true");
    await page.keyboard.press("Escape");
  }
  if (fields.priority) {
    await page.getByTestId("issue-priority-picker").click();
    await page.getByTestId(`issue-priority-option-${fields.priority}`).click();
    await expect(page.getByTestId("current-issue-priority")).not.toHaveText("No priority");
  }
  await page.getByTestId("create-issue-submit").click();
  await expect(page).toHaveURL(/\/issues\/\d+$/);
  await expect(page.getByTestId("issue-title-text")).toHaveText(fields.title);
  return Number(page.url().split("/").pop());
}

test("issues: create, filter, edit, comment, board drag and drop, triage, close and reopen", async ({ page, browser }) => {
  // --- owner, public repository, Issues tab
  await signUpIn(page.context(), owner);
  await page.goto("/new");
  await expect(page.getByTestId("create-repo-submit")).toBeEnabled();
  await page.getByLabel("Repository name").fill(repoName);
  await page.getByTestId("create-repo-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${owner}/${repoName}$`));
  await page.getByTestId("repo-issues-tab").click();
  await expect(page).toHaveURL(new RegExp(`${issues}$`));
  await expect(page.getByTestId("no-issues")).toBeVisible();

  // --- labels through tRPC with the session cookie
  const input = encodeURIComponent(JSON.stringify({ owner, name: repoName }));
  const repoId = (await (await page.request.get(`/api/trpc/repos.get?input=${input}`)).json()).result.data.id as string;
  await trpc(page, "issues.createLabel", { repoId, name: "bug", color: "#d73a4a" });
  await trpc(page, "issues.createLabel", { repoId, name: "feature", color: "#a2eeef" });

  // --- issues through the form (Markdown preview, label picker, priority)
  const first = await createIssue(page, {
    title: "Login button does nothing",
    body: "**Steps**: click *Log in*.",
    label: "bug",
    priority: "high",
  });
  expect(first).toBe(1);
  await expect(page.getByTestId("issue-body-markdown").locator("strong")).toHaveText("Steps");
  await expect(page.getByTestId("sidebar-labels").getByTestId("label-chip")).toHaveText("bug");
  await expect(page.getByTestId("current-priority")).toHaveText("High");
  const second = await createIssue(page, { title: "Add dark mode", label: "feature", priority: "low" });
  expect(second).toBe(2);

  // --- list and filters (one search query, kept in the URL)
  const darkMode = (
    await (await page.request.get(`/api/trpc/issues.get?input=${encodeURIComponent(JSON.stringify({ repoId, number: second }))}`)).json()
  ).result.data;
  await trpc(page, "issues.update", { issueId: darkMode.id, estimate: 1 });
  await page.goto(issues);
  await expect(page.getByTestId("issue-row")).toHaveCount(2);
  // one point is "1 pt", not "1 pts"
  await expect(page.getByTestId("issue-row").filter({ hasText: "Add dark mode" }).getByTitle("Estimate")).toHaveText("1 pt");
  await expect(page.getByTestId("count-open")).toHaveText("2");
  await page.getByTestId("filter-labels").click();
  await page.getByTestId("filter-labels-menu").getByTestId("filter-option").filter({ hasText: "bug" }).click();
  await expect(page).toHaveURL(/q=is%3Aopen\+label%3Abug/);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open label:bug");
  await expect(page.getByTestId("issue-row")).toHaveCount(1);
  await expect(page.getByTestId("issue-row").getByTestId("issue-title")).toHaveText("Login button does nothing");
  await expect(page.getByTestId("count-open")).toHaveText("1");
  // save the filtered list as a view, then come back to it
  await page.getByTestId("save-view").click();
  await page.getByTestId("view-name-input").fill("Open bugs");
  await page.getByTestId("view-save-submit").click();
  await expect(page).toHaveURL(/\?view=[0-9a-f-]+$/);
  await expect(page.getByTestId("view-name")).toHaveText("Open bugs");
  await expect(page.getByTestId("issue-row")).toHaveCount(1);
  await page.goto(`${issues}?label=bug`); // the older URL filters still work
  await expect(page.getByTestId("issue-search")).toHaveValue("is:open label:bug");
  await expect(page.getByTestId("saved-view")).toHaveText(["Open bugs"]);
  await page.getByTestId("filter-priorities").click();
  await page.getByTestId("filter-priorities-menu").getByTestId("filter-option").filter({ hasText: "Low" }).click();
  await expect(page).toHaveURL(/priority%3Alow/);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("no-issues")).toHaveAttribute("data-kind", "no-match");
  await page.getByTestId("clear-filters").click();
  await expect(page.getByTestId("issue-row")).toHaveCount(2);

  // --- issue page: status, priority, labels, comment, timeline
  await page.getByTestId("issue-title").filter({ hasText: "Add dark mode" }).click();
  await expect(page).toHaveURL(new RegExp(`${issues}/2$`));
  await page.getByTestId("status-picker").click();
  await page.getByTestId("status-option-in_progress").click();
  await expect(page.getByTestId("current-status")).toHaveText("In Progress");
  await page.getByTestId("priority-picker").click();
  await page.getByTestId("priority-option-urgent").click();
  await expect(page.getByTestId("current-priority")).toHaveText("Urgent");
  await page.getByTestId("labels-picker").click();
  await page.getByTestId("label-option").filter({ hasText: "bug" }).click();
  await expect(page.getByTestId("sidebar-labels").getByTestId("label-chip")).toHaveCount(2);
  // a label that does not exist yet is created from the picker and applied
  await page.getByTestId("label-filter").fill("needs-design");
  await page.getByTestId("create-label").click();
  await expect(page.getByTestId("sidebar-labels").getByTestId("label-chip")).toHaveText(["bug", "feature", "needs-design"]);
  await page.keyboard.press("Escape");
  await page.getByTestId("comment-input").fill("Needs a **design** first.");
  await page.getByTestId("comment-submit").click();
  await expect(page.getByTestId("comment-body").locator("strong")).toHaveText("design");
  // assignee picker: the repository's assignable people (here only the owner), then unassign
  await page.getByTestId("assignee-picker").click();
  await page.getByTestId(`assignee-option-${owner}`).click();
  await expect(page.getByTestId("current-assignee")).toHaveText(owner);
  await page.getByTestId("assignee-picker").click();
  await page.getByTestId("assignee-option-none").click();
  await expect(page.getByTestId("current-assignee")).toHaveText("No one");
  const timeline = page.getByTestId("timeline");
  await expect(timeline).toContainText(`${owner} self-assigned this`);
  await expect(timeline).toContainText(`${owner} removed their assignment`);
  await expect(timeline).toContainText(`${owner} changed status from Backlog to In Progress`);
  await expect(timeline).toContainText(`${owner} changed priority from Low to Urgent`);
  await expect(timeline).toContainText(`${owner} added the bug label`);
  await page.reload();
  await expect(page.getByTestId("current-status")).toHaveText("In Progress");
  await expect(page.getByTestId("comment")).toHaveCount(1);

  // --- board: drag #1 from Backlog to Todo with the mouse
  await page.goto(`${issues}/board`);
  const board = page.getByTestId("board");
  const column = (status: string) => page.locator(`[data-testid=board-column][data-status="${status}"]`);
  await expect(page.getByTestId("board-column")).toHaveCount(7);
  await expect(column("in_progress").getByTestId("board-card")).toHaveCount(1);
  const card = column("backlog").locator('[data-testid=board-card][data-number="1"]');
  await expect(card).toBeVisible();
  await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached(); // hydrated (dnd-kit mounts it on the client)
  const from = (await card.boundingBox())!;
  const to = (await column("todo").boundingBox())!;
  const start = { x: from.x + 24, y: from.y + 14 };
  const end = { x: to.x + to.width / 2, y: to.y + 90 };
  const moved = page.waitForResponse((r) => r.url().includes("issues.move"));
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 10, start.y + 5, { steps: 3 });
  await page.mouse.move(end.x, end.y, { steps: 20 });
  await page.mouse.move(end.x, end.y + 4, { steps: 2 });
  await page.mouse.up();
  expect((await moved).status()).toBe(200);
  await expect(board).toHaveAttribute("data-pending", "0");
  await expect(column("todo").locator('[data-testid=board-card][data-number="1"]')).toBeVisible();
  await page.reload();
  await expect(column("todo").locator('[data-testid=board-card][data-number="1"]')).toBeVisible();
  await expect(column("backlog").getByTestId("board-card")).toHaveCount(0);
  // keyboard: Space on its Move button picks #2 up, → moves it to the next column (In Review), Space drops it
  await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached(); // hydrated (dnd-kit mounts it on the client)
  await column("in_progress").locator('[data-testid=board-card][data-number="2"]').getByTestId("card-handle").focus();
  const movedByKeyboard = page.waitForResponse((r) => r.url().includes("issues.move"));
  await page.keyboard.press("Space");
  await pressUntilMoved(page, "ArrowRight", column("in_review").locator('[data-testid=board-card][data-number="2"]'));
  await page.keyboard.press("Space");
  expect((await movedByKeyboard).status()).toBe(200);
  await expect(board).toHaveAttribute("data-pending", "0");
  await page.reload();
  await expect(column("in_review").locator('[data-testid=board-card][data-number="2"]')).toBeVisible();
  await page.goto(`${issues}/1`);
  await expect(page.getByTestId("current-status")).toHaveText("Todo");

  // --- a second user (read-only on the public repository) files an issue: it goes to triage
  const other = await browser.newContext();
  const page2 = await other.newPage();
  await signUpIn(page2.context(), reporter);
  await page2.goto(`${issues}/new`);
  await expect(page2.getByTestId("triage-notice")).toBeVisible();
  await expect(page2.getByTestId("create-issue-submit")).toBeEnabled();
  await page2.getByTestId("issue-title-input").fill("Crash on empty search");
  await page2.getByTestId("issue-body-input").fill("Searching for nothing crashes the page.");
  await page2.getByTestId("create-issue-submit").click();
  await expect(page2).toHaveURL(new RegExp(`${issues}/3$`));
  await expect(page2.getByTestId("status-badge")).toHaveText("Triage");
  await expect(page2.getByTestId("status-picker")).toBeDisabled();
  await page2.goto(`${issues}/new`);
  await expect(page2.getByTestId("create-issue-submit")).toBeEnabled();
  await page2.getByTestId("issue-title-input").fill("Typo on the settings page");
  await page2.getByTestId("create-issue-submit").click();
  await expect(page2).toHaveURL(new RegExp(`${issues}/4$`));
  await other.close();

  // --- the owner accepts it with the keyboard
  await page.goto(`${issues}/triage`);
  await expect(page.getByTestId("triage-shortcuts")).toBeVisible();
  await expect(page.getByTestId("triage-item")).toHaveCount(2);
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", "3");
  // the queue's own key listener (and its pickers' shortcuts) can hydrate after the shell: its marker
  await expect(page.getByTestId("triage")).toHaveAttribute("data-keys", "on");
  await page.keyboard.press("j");
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", "4");
  await page.keyboard.press("k");
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", "3");
  // single keys open the property pickers of the selected issue (Linear's s / p / a / l; a accepts here, so Shift+A assigns)
  await page.keyboard.press("p");
  await expect(page.getByTestId("triage-priority-picker-menu")).toBeVisible();
  await page.getByTestId("triage-priority-option-high").click();
  await expect(page.getByTestId("current-triage-priority")).toHaveText("High");
  await page.keyboard.press("Shift+A");
  await expect(page.getByTestId("assignee-picker-menu")).toBeVisible();
  await page.keyboard.type(owner); // typed into the picker's filter, not taken as shortcuts
  await page.getByTestId(`assignee-option-${owner}`).click();
  await expect(page.getByTestId("current-assignee")).toHaveText(owner);
  await page.keyboard.press("l");
  await page.getByTestId("label-option").filter({ hasText: "bug" }).click();
  await expect(page.getByTestId("label-option").filter({ hasText: "bug" })).toHaveAttribute("data-checked", "true");
  await expect(page.getByTestId("triage-properties").getByTestId("label-chip")).toHaveText("bug");
  await expect(page.getByTestId("triage-item")).toHaveCount(2); // still in triage
  // `a` right after Escape: the closing picker's return of focus to its trigger (a task later) must
  // not take the focus from the accept form (components/ui/close-auto-focus.ts)
  await page.keyboard.press("Escape");
  await page.keyboard.press("a");
  await expect(page.getByTestId("accept-form")).toBeVisible();
  await expect(page.getByTestId("accept-confirm")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("triage-notice")).toContainText("Accepted #3 into Backlog");
  // s opens the status picker; picking a status accepts the issue into it
  await expect(page.getByTestId("triage-selected")).toHaveAttribute("data-number", "4");
  await page.keyboard.press("s");
  await expect(page.getByTestId("triage-status-picker-menu")).toBeVisible();
  await page.getByTestId("triage-status-option-todo").click();
  await expect(page.getByTestId("triage-notice")).toContainText("Accepted #4 into Todo");
  await expect(page.getByTestId("triage-empty")).toBeVisible();
  await page.goto(`${issues}/3`);
  await expect(page.getByTestId("current-status")).toHaveText("Backlog");
  await expect(page.getByTestId("current-priority")).toHaveText("High");
  await expect(page.getByTestId("current-assignee")).toHaveText(owner);
  await expect(page.getByTestId("sidebar-labels").getByTestId("label-chip")).toHaveText("bug");
  await expect(page.getByTestId("timeline")).toContainText(`${reporter} opened this issue in Triage`);
  await expect(page.getByTestId("timeline")).toContainText(`${owner} changed status from Triage to Backlog`);

  // --- close and reopen
  await page.goto(`${issues}/1`);
  await page.getByTestId("close-issue").click();
  await expect(page.getByTestId("state-badge")).toHaveText("Closed");
  await expect(page.getByTestId("timeline")).toContainText(`${owner} closed this issue`);
  await page.goto(issues);
  await expect(page.getByTestId("count-closed")).toHaveText("1");
  await page.getByTestId("state-closed").click();
  await expect(page.getByTestId("issue-row")).toHaveCount(1);
  await page.getByTestId("issue-title").click();
  await page.getByTestId("reopen-issue").click();
  await expect(page.getByTestId("state-badge")).toHaveText("Open");
  await expect(page.getByTestId("timeline")).toContainText(`${owner} reopened this issue`);
  // back where it was before closing (docs/issues.md "Statuses, categories and state"), not Backlog
  await expect(page.getByTestId("current-status")).toHaveText("Todo");
});
