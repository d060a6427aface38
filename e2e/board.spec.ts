/**
 * The board at scale (docs/ui.md "Issues", Board), in Debian's Chromium against the real server:
 *   - a page per column (50 cards) with the exact count and estimate sum in the header; more
 *     cards when the column's end scrolls into view, or with the "Load more" button (keyboard);
 *   - the board spans the viewport at 1440 px (the 1152 px page column would show only 3½ of 7
 *     columns);
 *   - screen readers hear the card and the column names ("Moved #3 … to In Progress, position 1
 *     of 2"), not "droppable area col:in_progress";
 *   - cards hold no interactive element inside another (axe-core `nested-interactive`);
 *   - on a phone a swipe that starts on a card scrolls the board; a press-and-hold picks it up;
 *   - dragging at the right edge (where the board auto-scrolls under the card) raises no error
 *     ("Maximum update depth exceeded");
 *   - a failed move puts the card back and shows the server's message;
 *   - a mouse drop over a column that straddles the right edge lands in that column: auto-scroll
 *     stops once the column is in view instead of running to the board's end (issue #22 item 1);
 *   - quick-add ("+" in a column header) creates an issue in that column; Escape closes the box;
 *   - grouped by priority (kept in the URL), dragging a card to the High column sets its priority.
 * One user is signed up for the whole file (sign-ups are rate-limited per address); issues are
 * created through the tRPC API with the session cookie.
 */
import { pressUntilMoved } from "./dnd";
import { test, expect } from "./fixtures";
import { type Browser, type BrowserContextOptions, type Page } from "@playwright/test";
import { signUpIn } from "./session";
import { AxeBuilder } from "./axe";
import os from "node:os";
import path from "node:path";

const username = `brd${Date.now().toString(36)}`;
const REPO = "scale";
const boardPath = `/${username}/${REPO}/issues/board`;
const storage = path.join(os.tmpdir(), `svc-board-${username}.json`);
const BACKLOG = 55; // more than a page (50)
let todo: { number: number; title: string }[] = [];
let repoId = "";

async function trpc(page: Page, baseURL: string, proc: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${proc}`, { headers: { origin: baseURL }, data });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, baseURL }) => {
  const page = await browser.newPage();
  await signUpIn(page.context(), username);
  const repo = await trpc(page, baseURL!, "repos.create", { name: REPO });
  repoId = repo.id;
  for (let k = 1; k <= BACKLOG; k++) {
    await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: `Backlog item ${k}`, ...(k % 2 === 0 ? { estimate: 2 } : {}) });
  }
  todo = [];
  for (const title of ["Fix login", "Write docs"]) {
    const i = await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title, status: "todo", estimate: 1.5 });
    todo.push({ number: i.number, title });
  }
  await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: "Already going", status: "in_progress" });
  await page.context().storageState({ path: storage });
  await page.close();
});

async function open(browser: Browser, options: BrowserContextOptions = {}) {
  const context = await browser.newContext({ storageState: storage, viewport: { width: 1440, height: 900 }, ...options });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    // script errors; not the browser's network log (prefetches of other pages may 404)
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
  });
  await page.goto(boardPath);
  await expect(page.getByTestId("board-column")).toHaveCount(7);
  // hydrated: dnd-kit mounts its live region on the client only (networkidle is not a signal
  // here: the page's navigation links keep prefetching)
  await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached();
  return { context, page, errors };
}

async function getIssue(page: Page, number: number) {
  const input = encodeURIComponent(JSON.stringify({ repoId, number }));
  const r = await page.request.get(`/api/trpc/issues.get?input=${input}`);
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data as { status: string; priority: string; title: string };
}

const column = (page: Page, status: string) => page.locator(`[data-testid=board-column][data-status="${status}"]`);
const card = (page: Page, number: number) => page.locator(`[data-testid=board-card][data-number="${number}"]`);
/** Resolves once the page has drawn its next frame. */
const nextFrame = (page: Page) => page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => r())));

test("a page per column with exact counts; more on scroll or with the button; full viewport width", async ({ browser }) => {
  const { context, page, errors } = await open(browser);
  const backlog = column(page, "backlog");
  await expect(backlog.getByTestId("column-count")).toHaveText(String(BACKLOG));
  await expect(backlog.getByTestId("column-estimate")).toHaveText(`${2 * Math.floor(BACKLOG / 2)} pts`);
  await expect(column(page, "todo").getByTestId("column-estimate")).toHaveText("3 pts");
  await expect(backlog.getByTestId("board-card")).toHaveCount(50);

  // the board spans the viewport (minus the page padding), so more than 4 of the 7 columns show
  const scroller = (await page.getByTestId("board-scroller").boundingBox())!;
  expect(scroller.width).toBeGreaterThan(1440 - 2 * 24 - 1);
  const visible = await page
    .getByTestId("board-column")
    .evaluateAll((cols) => cols.filter((c) => c.getBoundingClientRect().right <= window.innerWidth).length);
  expect(visible).toBeGreaterThanOrEqual(4);

  // keyboard users: the button, focused without scrolling its column's end into view
  const more = backlog.getByTestId("column-load-more");
  await expect(more).toHaveAccessibleName(`Load ${BACKLOG - 50} more in Backlog`);
  await more.evaluate((b: HTMLElement) => b.focus({ preventScroll: true }));
  await page.keyboard.press("Enter");
  await expect(backlog.getByTestId("board-card")).toHaveCount(BACKLOG);
  await expect(backlog.getByTestId("column-load-more")).toHaveCount(0);
  const numbers = await backlog.getByTestId("board-card").evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-number"))));
  expect(new Set(numbers).size).toBe(BACKLOG);
  expect(numbers).toEqual([...numbers].sort((a, b) => a - b)); // board order = creation order here

  // scrolling: the column's end comes into view and the next page loads by itself
  await page.reload();
  await expect(backlog.getByTestId("board-card")).toHaveCount(50);
  await backlog.getByTestId("column-sentinel").scrollIntoViewIfNeeded();
  await expect(backlog.getByTestId("board-card")).toHaveCount(BACKLOG);
  expect(errors).toEqual([]);
  await context.close();
});

test("screen readers hear card and column names; no nested interactive controls", async ({ browser }) => {
  const { context, page } = await open(browser);
  const axe = await new AxeBuilder({ page })
    .include("[data-testid=board]")
    .withRules(["nested-interactive", "aria-allowed-role", "aria-command-name", "button-name", "link-name"])
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);

  const [first] = todo;
  const live = page.locator('[id^="DndLiveRegion"]');
  const handle = card(page, first.number).getByTestId("card-handle");
  await expect(handle).toHaveAccessibleName(`Move #${first.number} ${first.title}`);
  await handle.focus();
  await page.keyboard.press("Space");
  await expect(live).toContainText(`Picked up #${first.number} ${first.title}, in Todo, position 1 of 2.`);
  const moved = page.waitForResponse((r) => r.url().includes("issues.move"));
  await pressUntilMoved(page, "ArrowRight", column(page, "in_progress").locator(`[data-testid=board-card][data-number="${first.number}"]`));
  await expect(live).toContainText("In Progress, position");
  await page.keyboard.press("Space");
  expect((await moved).status()).toBe(200);
  await expect(live).toContainText(new RegExp(`Moved #${first.number} ${first.title} to In Progress, position [12] of 2\\.`));
  await expect(live).not.toContainText("droppable");
  await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
  await expect(column(page, "todo").getByTestId("column-count")).toHaveText("1");
  await expect(column(page, "in_progress").getByTestId("column-count")).toHaveText("2");
  await expect(handle).toBeFocused(); // focus returns to the Move button
  await context.close();
});

test("a failed move puts the card back and shows the server's message", async ({ browser, baseURL }) => {
  const { context, page } = await open(browser);
  const [, second] = todo;
  await card(page, second.number).getByTestId("card-handle").focus();
  await page.keyboard.press("Space");
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(`Picked up #${second.number}`);
  const inProgress = column(page, "in_progress");
  await pressUntilMoved(page, "ArrowRight", inProgress.locator(`[data-testid=board-card][data-number="${second.number}"]`));
  // meanwhile someone else moves the cards it would land next to: the server refuses the anchor
  const others = await inProgress.getByTestId("board-card").evaluateAll((cs) => cs.map((c) => Number(c.getAttribute("data-number"))));
  for (const n of others.filter((n) => n !== second.number))
    await trpc(page, baseURL!, "issues.updateStatus", { repoId, number: n, status: "done" });
  await page.keyboard.press("Space");
  await expect(page.getByTestId("board-error")).toContainText(new RegExp(`Could not move #${second.number}: #\\d+ is not in in_progress`));
  await expect(column(page, "todo").locator(`[data-testid=board-card][data-number="${second.number}"]`)).toBeVisible();
  await expect(column(page, "todo").getByTestId("column-count")).toHaveText("1");
  await expect(inProgress.locator(`[data-testid=board-card][data-number="${second.number}"]`)).toHaveCount(0);
  await context.close();
});

test("dragging at the right edge, where the board scrolls under the card, raises no error", async ({ browser }) => {
  const { context, page, errors } = await open(browser);
  const source = (await card(page, todo[1].number).boundingBox())!;
  const start = { x: source.x + source.width / 2, y: source.y + 40 };
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 10, start.y + 5, { steps: 3 });
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  // to the right edge, then back and forth across it while dnd-kit auto-scrolls the board
  await page.mouse.move(1430, start.y + 20, { steps: 15 });
  for (let k = 0; k < 40; k++) await page.mouse.move(k % 2 ? 1436 : 1380, start.y + 20 + (k % 5) * 6, { steps: 2 });
  await page.keyboard.press("Escape");
  await page.mouse.up();
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "false");
  await expect(page.getByTestId("board-column")).toHaveCount(7);
  expect(errors.filter((e) => /Maximum update depth|#185|Minified React error/.test(e))).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});

test("phone: a swipe on a card scrolls the board, a press and hold picks the card up", async ({ browser }) => {
  const { context, page, errors } = await open(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(fits).toBe(true);
  const scroller = page.getByTestId("board-scroller");
  const target = (await card(page, 1).boundingBox())!;
  const cdp = await context.newCDPSession(page);
  const touch = (type: "touchStart" | "touchMove" | "touchEnd", x: number, y: number) =>
    cdp.send("Input.dispatchTouchEvent", { type, touchPoints: type === "touchEnd" ? [] : [{ x, y }] });
  let moves = 0;
  page.on("request", (r) => {
    if (r.url().includes("issues.move")) moves++;
  });

  // a quick horizontal swipe starting on a card (the Backlog column starts at x ≈ 316)
  const x = Math.min(target.x + 30, 380);
  const y = target.y + target.height / 2;
  expect(await page.evaluate(([px, py]) => Boolean(document.elementFromPoint(px, py)?.closest("[data-testid=board-card]")), [x, y])).toBe(
    true,
  );
  await touch("touchStart", x, y);
  for (let k = 1; k <= 10; k++) {
    await touch("touchMove", x - k * 25, y);
    await nextFrame(page); // a finger's moves come one frame apart
  }
  await touch("touchEnd", x - 250, y);
  await expect.poll(() => scroller.evaluate((s) => s.scrollLeft)).toBeGreaterThan(100);
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "false");

  // press and hold: after the 250 ms delay the card is picked up; then it moves with the finger
  await card(page, 1).scrollIntoViewIfNeeded();
  const held = (await card(page, 1).boundingBox())!;
  const hx = Math.min(Math.max(held.x + held.width / 2, 10), 380);
  const hy = held.y + held.height / 2;
  await touch("touchStart", hx, hy);
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  await touch("touchMove", hx, hy + 12);
  await touch("touchMove", hx, hy + 24);
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  await touch("touchMove", hx, hy + 2);
  await touch("touchEnd", hx, hy + 2);
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "false");
  expect(moves).toBe(0); // dropped where it was: nothing to send
  expect(errors).toEqual([]);
  await context.close();
});

/** Resolves once the board's horizontal scroll has not moved for 10 frames (auto-scroll settled). */
const scrollSettled = (page: Page) =>
  page.getByTestId("board-scroller").evaluate(async (s) => {
    let last = -1;
    for (let same = 0; same < 10;) {
      await new Promise((r) => requestAnimationFrame(r));
      same = s.scrollLeft === last ? same + 1 : 0;
      last = s.scrollLeft;
    }
    return last;
  });

test("a mouse drop on the column straddling the right edge lands there; auto-scroll stops at it", async ({ browser, baseURL }) => {
  const { context, page, errors } = await open(browser);
  const issue = await trpc(page, baseURL!, "issues.create", { repoId, title: "Edge drop", status: "todo" });
  await page.reload();
  await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached();
  const review = (await column(page, "in_review").boundingBox())!;
  expect(review.x).toBeLessThan(1290); // In Review straddles the viewport's right edge (x 1224–1504)
  expect(review.x + review.width).toBeGreaterThan(1440);
  const source = (await card(page, issue.number).boundingBox())!;
  const start = { x: source.x + source.width / 2, y: source.y + source.height / 2 };
  const y = start.y + 60;
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move(start.x + 10, start.y + 5, { steps: 3 });
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  await page.mouse.move(1290, y, { steps: 20 });
  // hold still while the board auto-scrolls under the pointer
  await expect.poll(() => page.getByTestId("board-scroller").evaluate((s) => s.scrollLeft)).toBeGreaterThan(0);
  const scrolled = await scrollSettled(page);
  const max = await page.getByTestId("board-scroller").evaluate((s) => s.scrollWidth - s.clientWidth);
  expect(scrolled).toBeLessThan(max); // stopped with In Review in view, not at the board's end
  const under = await page.evaluate(
    ([x, py]) =>
      document
        .elementsFromPoint(x, py)
        .map((e) => e.closest("[data-status]")?.getAttribute("data-status"))
        .find(Boolean),
    [1290, y],
  );
  expect(under).toBe("in_review");
  const moved = page.waitForResponse((r) => r.url().includes("issues.move"));
  await page.mouse.up();
  expect((await moved).status()).toBe(200);
  await expect(column(page, "in_review").locator(`[data-testid=board-card][data-number="${issue.number}"]`)).toBeVisible();
  expect((await getIssue(page, issue.number)).status).toBe("in_review");
  expect(errors).toEqual([]);
  await context.close();
});

test("quick-add: the column's + creates an issue there; Escape closes the box", async ({ browser }) => {
  const { context, page } = await open(browser);
  const todoColumn = column(page, "todo");
  const count = Number(await todoColumn.getByTestId("column-count").textContent());
  const plus = todoColumn.getByTestId("column-quick-add");
  await expect(plus).toHaveAccessibleName("Add issue to Todo");
  await plus.click();
  const box = todoColumn.getByRole("textbox", { name: "New issue title in Todo" });
  await expect(box).toBeFocused();
  await box.fill("Quickly added");
  await box.press("Enter");
  const added = todoColumn.getByTestId("board-card").filter({ hasText: "Quickly added" });
  await expect(added).toBeVisible();
  await expect(todoColumn.getByTestId("column-count")).toHaveText(String(count + 1));
  await expect(box).toHaveValue("");
  const number = Number(await added.getAttribute("data-number"));
  const issue = await getIssue(page, number);
  expect([issue.title, issue.status]).toEqual(["Quickly added", "todo"]);
  await box.press("Escape");
  await expect(box).toHaveCount(0);
  await expect(plus).toBeFocused();
  await context.close();
});

test("grouped by priority (kept in the URL): dragging a card to High sets its priority", async ({ browser, baseURL }) => {
  const { context, page, errors } = await open(browser);
  const issue = await trpc(page, baseURL!, "issues.create", { repoId, title: "Prioritise me", priority: "low" });
  await page.getByTestId("board-group").selectOption("priority");
  await expect(page).toHaveURL(/[?&]group=priority/);
  const group = (key: string) => page.locator(`[data-testid=board-column][data-group-key="${key}"]`);
  await expect(group("high").getByRole("heading")).toHaveText("High");
  const source = group("low").locator(`[data-testid=board-card][data-number="${issue.number}"]`);
  await expect(source).toBeVisible();
  const from = (await source.boundingBox())!;
  const to = (await group("high").boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2 + 5, { steps: 3 });
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 15 });
  await page.mouse.up();
  await expect(group("high").locator(`[data-testid=board-card][data-number="${issue.number}"]`)).toBeVisible();
  await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
  expect((await getIssue(page, issue.number)).priority).toBe("high");
  await page.reload();
  await expect(page.getByTestId("board-group")).toHaveValue("priority");
  await expect(group("high").locator(`[data-testid=board-card][data-number="${issue.number}"]`)).toBeVisible();
  expect(errors).toEqual([]);
  await context.close();
});
