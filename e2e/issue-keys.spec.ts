/**
 * Linear's keyboard on the issue list and the issue sidebar's project and cycle (docs/ui.md
 * "Issues", "Keyboard shortcuts"): j/k move real focus through the rows, x and Shift+X select,
 * the bulk-edit bar changes every selected issue with one issues.bulkUpdate, `s` on a focused row
 * opens the status picker, and the issue page's sidebar sets the project and the cycle. One user
 * and one repository (set up over tRPC) for the whole file; the tests run in order.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { newUser, type E2EUser } from "./session";

test.describe.configure({ mode: "serial" });

let user: E2EUser;
let page: Page;
let repoId = "";
let base = "";
let projectId = "";
let cycleId = "";

type Row = {
  number: number;
  priority: string;
  status: string;
  projectId: string | null;
  cycleId: string | null;
  labels: { name: string }[];
};

async function issues(): Promise<Row[]> {
  const input = encodeURIComponent(JSON.stringify({ repoId, limit: 100 }));
  const r = await page.request.get(`/api/trpc/issues.list?input=${input}`);
  expect(r.status()).toBe(200);
  return ((await r.json()).result.data as Row[]).sort((a, b) => a.number - b.number);
}

const rowOf = (n: number) => page.locator(`[data-testid=issue-row][data-number="${n}"]`);
const focusedNumber = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.number ?? null);

test.beforeAll(async ({ browser, baseURL }) => {
  user = await newUser(browser, baseURL!, "lkeys");
  page = user.page;
  const repo = await user.trpc("repos.create", { name: "keys" });
  repoId = repo.id as string;
  base = `/${user.username}/keys`;
  for (const title of ["One", "Two", "Three", "Four"]) await user.trpc("issues.create", { repoId, title });
  await user.trpc("issues.createLabel", { repoId, name: "bulk", color: "#0e8a16" });
  projectId = (await user.trpc("projects.create", { repoId, name: "Roadmap" })).id as string;
  const today = new Date().toISOString().slice(0, 10);
  const later = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  cycleId = (await user.trpc("cycles.create", { repoId, startsAt: today, endsAt: later })).id as string;
});

test.afterAll(async () => {
  await user.context.close();
});

test("j/k move focus through the rows, x and Shift+X select a range, Escape clears", async () => {
  await page.goto(`${base}/issues`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  // the rows arrive after the page's keyboard is on: j before them has nothing to move to
  for (const n of [4, 3, 2, 1]) await expect(rowOf(n)).toBeVisible();
  // newest first: #4, #3, #2, #1
  await page.keyboard.press("j");
  await expect.poll(focusedNumber).toBe("4");
  await expect(rowOf(4)).toHaveAttribute("tabindex", "0");
  await page.keyboard.press("j");
  await page.keyboard.press("ArrowDown");
  await expect.poll(focusedNumber).toBe("2");
  await page.keyboard.press("k");
  await expect.poll(focusedNumber).toBe("3");
  await expect(rowOf(4)).toHaveAttribute("tabindex", "-1");

  await page.keyboard.press("x");
  await expect(rowOf(3)).toHaveAttribute("data-selected", "true");
  await expect(page.getByTestId("bulk-count")).toHaveText("1 selected");
  await page.keyboard.press("j");
  await page.keyboard.press("j");
  await page.keyboard.press("Shift+X");
  await expect(page.getByTestId("bulk-count")).toHaveText("3 selected");
  for (const n of [3, 2, 1]) await expect(rowOf(n)).toHaveAttribute("data-selected", "true");
  await expect(rowOf(4)).not.toHaveAttribute("data-selected", "true");
  await expect(page.getByRole("toolbar", { name: "Bulk edit" })).toBeVisible();

  await page.keyboard.press("Escape");
  await expect(page.getByTestId("bulk-bar")).toHaveCount(0);
  await expect(page.locator("[data-testid=issue-row][data-selected]")).toHaveCount(0);
});

test("the bulk-edit bar sets the priority and adds a label on three issues", async () => {
  for (const n of [4, 3, 2]) await rowOf(n).getByTestId("row-select").click();
  await expect(page.getByTestId("bulk-count")).toHaveText("3 selected");
  await page.getByTestId("bulk-bar").getByTestId("priority-picker").click();
  await page.getByTestId("priority-option-high").click();
  await expect.poll(async () => (await issues()).map((i) => i.priority)).toEqual(["none", "high", "high", "high"]);
  await page.getByTestId("bulk-bar").getByTestId("labels-picker").click();
  await page.getByTestId("label-option").filter({ hasText: "bulk" }).click();
  await expect.poll(async () => (await issues()).map((i) => i.labels.map((l) => l.name).join())).toEqual(["", "bulk", "bulk", "bulk"]);
  await page.keyboard.press("Escape"); // closes the label picker
  await expect(page.getByTestId("labels-picker-menu")).toHaveCount(0);
  await page.getByTestId("bulk-clear").click();
  await expect(page.getByTestId("bulk-bar")).toHaveCount(0);
});

test("s on a focused row opens the status picker and sets that issue's status", async () => {
  await rowOf(1).focus();
  await page.keyboard.press("s");
  await expect(page.getByTestId("status-picker-menu")).toBeVisible();
  await page.getByTestId("status-option-in_progress").click();
  await expect.poll(async () => (await issues()).find((i) => i.number === 1)?.status).toBe("in_progress");
  await expect(rowOf(1).getByTestId("row-status")).toHaveAttribute("data-status", "in_progress");
  expect((await issues()).filter((i) => i.status === "in_progress").map((i) => i.number)).toEqual([1]);
});

test("the issue sidebar sets the project and the cycle", async () => {
  await page.goto(`${base}/issues/1`);
  await page.getByTestId("project-picker").click();
  await page.getByTestId(`project-option-${projectId}`).click();
  await expect(page.getByTestId("current-project")).toHaveText("Roadmap");
  await page.getByTestId("cycle-picker").click();
  await page.getByTestId(`cycle-option-${cycleId}`).click();
  await expect(page.getByTestId("current-cycle")).toHaveText(/^Cycle 1/);
  await expect.poll(async () => (await issues()).find((i) => i.number === 1)).toMatchObject({ projectId, cycleId });
  await page.getByTestId("project-picker").click();
  await page.getByTestId("project-option-none").click();
  await expect.poll(async () => (await issues()).find((i) => i.number === 1)?.projectId).toBeNull();
});
