/**
 * Swimlanes on the board (docs/ui.md "Issues", Board, "Rows"), in Debian's Chromium against the
 * real server: Rows = assignee splits the board into a lane per assignee (and "No assignee"), kept
 * in the URL; a mouse drag from the "No assignee" lane's Todo column into the owner's lane's In
 * Progress column assigns the card and changes its status with one write; the keyboard (Move
 * button, Space, →, Space) moves a card to the next column of its lane; a lane collapses from its header
 * (a button with aria-expanded) and stays collapsed after a reload; at 390 px the page does not
 * scroll sideways (only the board's own scroller does); axe-core finds nothing serious at either
 * size (e2e/a11y.spec.ts also covers `?rows=priority`).
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";
import { signUpIn } from "./session";

const username = `lan${Date.now().toString(36)}`;
const REPO = "lanes";
const boardPath = `/${username}/${REPO}/issues/board`;

async function trpc(page: Page, baseURL: string, proc: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${proc}`, { headers: { origin: baseURL }, data });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}

/** Serious or critical axe-core violations (WCAG 2.1 A/AA) on the page as it is. */
async function axeFailures(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

async function getIssue(page: Page, repoId: string, number: number) {
  const input = encodeURIComponent(JSON.stringify({ repoId, number }));
  const r = await page.request.get(`/api/trpc/issues.get?input=${input}`);
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data as { status: string; assigneeId: string | null };
}

test("rows by assignee: a drop into another lane and column assigns and moves; lanes collapse; kept on reload; no sideways scroll at 390 px", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await signUpIn(context, username);
  const repo = await trpc(page, baseURL!, "repos.create", { name: REPO });
  const me = (await (await page.request.get("/api/trpc/users.me")).json()).result.data as { id: string };
  const loose = await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: "Nobody's yet", status: "todo" });
  const mine = await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: "Mine already", status: "todo", assigneeId: me.id });

  await page.goto(boardPath);
  await expect(page.locator('[id^="DndLiveRegion"]')).toBeAttached();
  await page.getByTestId("board-rows").selectOption("assignee");
  await expect(page).toHaveURL(/[?&]rows=assignee/);
  const lane = (key: string) => page.locator(`[data-testid=board-lane][data-lane-key="${key}"]`);
  const cell = (laneKey: string, col: string) => lane(laneKey).locator(`[data-testid=board-column][data-group-key="${col}"]`);
  const cardIn = (laneKey: string, col: string, n: number) => cell(laneKey, col).locator(`[data-testid=board-card][data-number="${n}"]`);
  await expect(page.getByTestId("board-lane")).toHaveCount(2);
  await expect(lane("none").getByTestId("lane-toggle")).toHaveAccessibleName(/No assignee\s*1 issues/);
  await expect(lane(me.id).getByTestId("lane-toggle")).toHaveAccessibleName(new RegExp(`${username}\\s*1 issues`));

  // mouse: No assignee · Todo → me · In Progress
  const source = cardIn("none", "todo", loose.number);
  await expect(source).toBeVisible();
  await cell(me.id, "in_progress").scrollIntoViewIfNeeded();
  const from = (await source.boundingBox())!;
  const to = (await cell(me.id, "in_progress").boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 - 10, from.y + from.height / 2 + 5, { steps: 3 });
  await expect(page.getByTestId("board")).toHaveAttribute("data-dragging", "true");
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
  await page.mouse.up();
  await expect(cardIn(me.id, "in_progress", loose.number)).toBeVisible();
  await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
  await expect.poll(async () => getIssue(page, repo.id, loose.number)).toMatchObject({ status: "in_progress", assigneeId: me.id });
  // "No assignee" is now empty, so its lane is hidden
  await expect(page.getByTestId("board-lane")).toHaveCount(1);

  // keyboard: me · Todo → me · In Progress; screen readers hear the column and the lane
  const live = page.locator('[id^="DndLiveRegion"]');
  await cardIn(me.id, "todo", mine.number).getByTestId("card-handle").focus();
  await page.keyboard.press("Space");
  // "Picked up #n …, in Todo in <lane>." and then "#n … is over Todo in <lane>."
  await expect(live).toContainText(`Todo in ${username}.`);
  // dnd-kit's keyboard sensor starts listening for arrows a task after the pick-up: an arrow pressed
  // in between is lost, so press again only while the card is still announced over Todo
  const overInProgress = `#${mine.number} Mine already is over In Progress in ${username}.`;
  await expect(async () => {
    if (!(await live.textContent())?.includes(overInProgress)) await page.keyboard.press("ArrowRight");
    await expect(live).toContainText(overInProgress, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press("Space");
  await expect(cardIn(me.id, "in_progress", mine.number)).toBeVisible();
  await expect(page.getByTestId("board")).toHaveAttribute("data-pending", "0");
  await expect.poll(async () => (await getIssue(page, repo.id, mine.number)).status).toBe("in_progress");

  // collapse my lane; the choice and the collapsed lane survive a reload
  const toggle = lane(me.id).getByTestId("lane-toggle");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(lane(me.id).getByTestId("board-card")).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("board-rows")).toHaveValue("assignee");
  await expect(page.getByTestId("board-group")).toHaveValue("status");
  await expect(lane(me.id).getByTestId("lane-toggle")).toHaveAttribute("aria-expanded", "false");
  await lane(me.id).getByTestId("lane-toggle").click();
  await expect(cardIn(me.id, "in_progress", loose.number)).toBeVisible();
  expect(await axeFailures(page)).toEqual([]);

  // phone: lanes stack; only the board's scroller scrolls sideways
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(cardIn(me.id, "in_progress", loose.number)).toBeAttached();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
    .toBeLessThanOrEqual(0);
  const scroller = page.getByTestId("board-scroller");
  expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await axeFailures(page)).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});
