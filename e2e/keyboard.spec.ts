/**
 * Keyboard shortcuts, the command menu, the file finder and the code view (docs/ui.md "Keyboard
 * shortcuts") in a real browser against the real server. One user (signed up over tRPC, signed in
 * through next-auth's credentials endpoint) pushes a fixture with the real git CLI (files, a second
 * commit, a tag) and files two issues over tRPC; the tests share its browser context (clipboard
 * permissions granted) and run in order.
 */
import { test, expect } from "./fixtures";
import { type BrowserContext, type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";
import { mustRunGit, writeFile } from "./git";
import { SEQUENCE_WINDOW_MS } from "../components/keyboard/registry";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

test.describe.configure({ mode: "serial" });

const PASSWORD = "correct horse battery";
const username = `keys${Date.now().toString(36)}`;
const repoName = "keys-demo";
const repoUrl = `/${username}/${repoName}`;
/** 20,000 lines (~210 KB: under the highlighting limit, so shiki renders every line). */
const BIG = Array.from({ length: 20_000 }, (_, i) => `row ${i + 1}`).join("\n") + "\n";
const MATH = Array.from({ length: 40 }, (_, i) => `export const n${i + 1} = ${i + 1};`).join("\n") + "\n";

let work = "";
let context: BrowserContext;
let page: Page;

function mustGit(cwd: string, ...args: string[]): string {
  return mustRunGit(path.join(work, "home"), cwd, args);
}

/** Waits until the shortcut listener is installed (the page has hydrated). */
async function ready(p: Page = page) {
  await expect(p.locator("html[data-shortcuts='on']")).toHaveCount(1);
}

async function post(proc: string, data: unknown) {
  const r = await context.request.post(`/api/trpc/${proc}`, { headers: { origin: test.info().project.use.baseURL! }, data });
  expect(r.status(), `${proc}: ${await r.text()}`).toBe(200);
  return (await r.json()).result.data;
}

test.beforeAll(async ({ browser }) => {
  work = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-keys-"));
  mkdirSync(path.join(work, "home"));
  context = await browser.newContext({ permissions: ["clipboard-read", "clipboard-write"] });
  const signUp = await context.request.post("/api/trpc/users.signUp", { data: { username, password: PASSWORD } });
  expect(signUp.status()).toBe(200);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  const signIn = await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username, password: PASSWORD, json: "true" },
  });
  expect(signIn.ok()).toBe(true);

  const repo = await post("repos.create", { name: repoName });
  await post("issues.create", { repoId: repo.id, title: "Fix the flux capacitor" });
  await post("issues.create", { repoId: repo.id, title: "Second issue" });
  const created = await context.request.post("/api/tokens", {
    headers: { origin: test.info().project.use.baseURL! },
    data: { name: "e2e keys", scopes: ["repo:read", "repo:write"] },
  });
  expect(created.status()).toBe(201);
  const { token } = await created.json();

  const dir = path.join(work, "fixture");
  mkdirSync(dir);
  mustGit(dir, "init", "--quiet");
  writeFile(dir, "README.md", "# Keys demo\n");
  writeFile(dir, "CHANGELOG.md", "first release\n");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "First release");
  mustGit(dir, "tag", "v1.0");
  writeFile(dir, "src/lib/math.ts", MATH);
  writeFile(dir, "src/index.ts", 'import { n1 } from "./lib/math";\n');
  writeFile(dir, "docs/guide/intro.md", "# Intro\n");
  writeFile(dir, "data/big.txt", BIG);
  mustGit(dir, "rm", "--quiet", "CHANGELOG.md");
  mustGit(dir, "add", "-A");
  mustGit(dir, "commit", "--quiet", "-m", "Add the library");
  const remote = new URL(`${test.info().project.use.baseURL}${repoUrl}.git`);
  remote.username = username;
  remote.password = token;
  mustGit(dir, "push", "--quiet", remote.toString(), "main", "--tags");

  page = await context.newPage();
});

test.afterAll(async () => {
  await context?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("? opens the shortcut sheet listing this page's shortcuts; Escape closes it and focus returns", async () => {
  await page.goto(repoUrl);
  await ready();
  const link = page.getByTestId("repo-name");
  await link.focus();
  await page.keyboard.press("?");
  const sheet = page.getByTestId("shortcut-sheet");
  await expect(sheet).toBeVisible();
  for (const keys of ["?", "mod+k", "/", "g i", "g b", "g c", "c", "t"])
    await expect(sheet.locator(`[data-keys="${keys}"]`)).toHaveCount(1);
  await expect(sheet.getByRole("region", { name: "Repository" })).toContainText("Go to issues");
  await page.keyboard.press("Escape");
  await expect(sheet).toBeHidden();
  await expect(link).toBeFocused();
  // outside a repository there are no repository shortcuts
  await page.goto("/settings/tokens");
  await ready();
  await page.keyboard.press("?");
  await expect(page.getByTestId("shortcut-sheet")).toBeVisible();
  await expect(page.getByTestId("shortcut-sheet").locator('[data-keys="g i"]')).toHaveCount(0);
  await page.keyboard.press("Escape");
});

test("g i / g b / g c navigate, c opens a new issue, and nothing fires while typing", async () => {
  await page.goto(repoUrl);
  await ready();
  await page.keyboard.press("g");
  await page.keyboard.press("i");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues$`));
  await page.keyboard.press("g");
  await page.keyboard.press("b");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues/board$`));
  // the next sequence once the board is drawn, as a person would (a "g" pressed while the page is still being swapped in can be lost)
  await expect(page.getByTestId("board")).toBeVisible();
  await page.keyboard.press("g");
  await page.keyboard.press("c");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}$`));
  await expect(page.getByTestId("file-tree")).toBeVisible();
  await page.keyboard.press("c");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues/new$`));
  const title = page.getByTestId("issue-title-input");
  await title.click();
  await page.keyboard.type("g i c ? t");
  await expect(title).toHaveValue("g i c ? t");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues/new$`));
  await expect(page.getByTestId("shortcut-sheet")).toHaveCount(0);
  // a sequence that waited too long does not fire
  await title.blur();
  // wait until the sequence window has passed since the "g" (keys carry their time; none is faked)
  await page.evaluate(() =>
    addEventListener("keydown", (e) => ((window as unknown as { gAt: number }).gAt = e.timeStamp), { once: true, capture: true }),
  );
  await page.keyboard.press("g");
  await page.waitForFunction((span) => {
    const at = (window as unknown as { gAt?: number }).gAt;
    return at !== undefined && performance.now() - at > span;
  }, SEQUENCE_WINDOW_MS);
  await page.keyboard.press("i");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues/new$`));
});

test("t opens the file finder: fuzzy text finds a file and Enter opens it; / focuses it on code pages", async () => {
  await page.goto(repoUrl);
  await ready();
  const finder = page.getByTestId("file-finder");
  // the finder registers `t` when the streamed code page hydrates, a moment after the page
  await expect(async () => {
    await page.keyboard.press("t");
    await expect(finder).toBeVisible({ timeout: 1000 });
  }).toPass();
  const input = page.getByTestId("file-finder-input");
  await expect(input).toBeFocused();
  await expect(finder.getByTestId("file-finder-count")).toContainText("5 files at main");
  await input.fill("slmath");
  await expect(finder.getByTestId("file-finder-result").first()).toContainText("src/lib/math.ts");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/blob/main/src/lib/math\\.ts$`));
  await expect(page.getByTestId("code-view")).toBeVisible();

  await ready();
  await page.keyboard.press("/");
  await expect(page.getByTestId("file-finder-input")).toBeFocused();
  await page.keyboard.type("intro");
  await expect(page.getByTestId("file-finder-result").first()).toContainText("docs/guide/intro.md");
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("file-finder")).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/blob/main/src/lib/math\\.ts$`));
});

test("⌘K / Ctrl+K finds an issue, a repository and an action; the top-bar button opens it too", async () => {
  await page.goto(`${repoUrl}/issues`);
  await ready();
  const menu = page.getByTestId("command-menu");
  await page.keyboard.press("Control+k");
  await expect(menu).toBeVisible();
  await expect(page.getByTestId("command-input")).toBeFocused();
  await page.keyboard.type("flux");
  await expect(menu.getByTestId("command-issue")).toHaveCount(1);
  await expect(menu.getByTestId("command-issue")).toContainText("#1");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/issues/1$`));

  await ready();
  await page.keyboard.press("Control+k");
  await page.keyboard.type("#2");
  await expect(menu.getByTestId("command-issue").first()).toContainText("Second issue");
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();

  await page.goto("/settings/tokens");
  await ready();
  await page.getByTestId("command-menu-button").click();
  await expect(menu).toBeVisible();
  await page.keyboard.type(repoName);
  await expect(menu.getByTestId("command-repo")).toContainText(`${username}/${repoName}`);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}$`));

  await ready();
  await page.keyboard.press("Meta+k");
  await expect(menu).toBeVisible();
  await page.keyboard.type("new repository");
  await expect(menu.getByTestId("command-action-new-repo")).toHaveAttribute("data-selected", "true");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/new$/);
});

test("line numbers: a click sets #L3, shift-click #L3-L6, both highlighted; a range in the URL is highlighted and scrolled to on load", async () => {
  const blob = `${repoUrl}/blob/main/src/lib/math.ts`;
  await page.goto(blob);
  await ready();
  const code = page.getByTestId("code-view");
  await code.locator('a[href="#L3"]').click();
  await expect(page).toHaveURL(new RegExp(`#L3$`));
  await expect(code.locator(".line.selected")).toHaveCount(1);
  await expect(code.locator("#L3")).toHaveClass(/selected/);
  await code.locator('a[href="#L6"]').click({ modifiers: ["Shift"] });
  await expect(page).toHaveURL(new RegExp(`#L3-L6$`));
  await expect(code.locator(".line.selected")).toHaveCount(4);
  await expect(code.locator("#L7")).not.toHaveClass(/selected/);
  // numbers are not text: the code's text is exactly the file
  expect((await code.locator("code").textContent()) + "\n").toBe(MATH);

  await page.goto(`${blob}#L35-L38`);
  await ready();
  await expect(code.locator(".line.selected")).toHaveCount(4);
  await expect(code.locator("#L35")).toBeInViewport();
  // a hash change (e.g. a link on the page, or typing it) moves the selection
  await page.evaluate(() => (window.location.hash = "#L2"));
  await expect(code.locator(".line.selected")).toHaveCount(1);
  await expect(code.locator("#L2")).toHaveClass(/selected/);
});

test("a 20,000-line file: every line has its number link, and a range near the end is highlighted and scrolled to", async () => {
  await page.goto(`${repoUrl}/blob/main/data/big.txt#L19990-L19995`);
  await ready();
  const code = page.getByTestId("code-view");
  await expect(code.locator(".line > a")).toHaveCount(20_000);
  await expect(code.locator(".line.selected")).toHaveCount(6);
  await expect(code.locator("#L19990")).toBeInViewport();
  await code.locator('a[href="#L19999"]').click();
  await expect(page).toHaveURL(/#L19999$/);
  await expect(code.locator(".line.selected")).toHaveCount(1);
});

test("copy puts the file on the clipboard; download saves it", async () => {
  await page.goto(`${repoUrl}/blob/main/src/lib/math.ts`);
  await ready();
  await page.getByTestId("copy-file").click();
  await expect(page.getByTestId("copy-file")).toHaveAccessibleName("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MATH);
  const download = page.waitForEvent("download");
  await page.getByTestId("download-file").click();
  expect((await download).suggestedFilename()).toBe("math.ts");
});

test("the branch switcher's Tags tab lists a pushed tag, filters, and opens the tree at it", async () => {
  await page.goto(repoUrl);
  await ready();
  await page.getByTestId("branch-switcher").click();
  await expect(page.getByRole("option", { name: "main" })).toBeVisible();
  await page.getByTestId("ref-tab-tags").click();
  const tag = page.getByTestId("tag-option").filter({ hasText: "v1.0" });
  await expect(tag).toBeVisible();
  await page.getByLabel("Filter tags").fill("nope");
  await expect(page.getByTestId("tag-option")).toHaveCount(0);
  await page.getByLabel("Filter tags").fill("v1");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`${repoUrl}/tree/v1\\.0$`));
  await expect(page.getByTestId("current-ref")).toHaveText("v1.0");
  await expect(page.getByTestId("tree-entry").filter({ hasText: "CHANGELOG.md" })).toBeVisible();
  await expect(page.getByTestId("tree-entry").filter({ hasText: "src" })).toHaveCount(0);
});

test("the code view, the ref popover, the command menu, the sheet and the file finder have no serious axe violations, light and dark, desktop and phone", async () => {
  const serious = async (what: string) => {
    // the user menu (components/layout/user-menu.tsx, not part of this work) has a known
    // label-content-name-mismatch ("Account menu for x" around the visible "x"); left to its owner
    const r = await new AxeBuilder({ page }).exclude("[data-testid='user-menu']").analyze();
    const bad = r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map(
        (v) =>
          `${v.id}: ${v.nodes
            .map((n) => n.target.join(" "))
            .slice(0, 3)
            .join(" | ")}`,
      );
    expect(bad, what).toEqual([]);
  };
  for (const colorScheme of ["light", "dark"] as const) {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const at = `${colorScheme} ${viewport.width}px`;
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize(viewport);
      await page.goto(`${repoUrl}/blob/main/src/lib/math.ts#L3-L6`);
      await ready();
      await expect(page.getByTestId("code-view").locator(".line.selected")).toHaveCount(4);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${at}: no horizontal scroll`).toBe(
        true,
      );
      await serious(`${at} file with selected lines`);
      await page.getByTestId("branch-switcher").click();
      await page.getByTestId("ref-tab-tags").click();
      await expect(page.getByTestId("tag-option").first()).toBeVisible();
      await serious(`${at} tags`);
      await page.keyboard.press("Escape");
      await page.keyboard.press("Control+k");
      await expect(page.getByTestId("command-issue").first()).toBeVisible();
      await serious(`${at} command menu`);
      await page.keyboard.press("Escape");
      await page.keyboard.press("?");
      await expect(page.getByTestId("shortcut-sheet")).toBeVisible();
      await serious(`${at} shortcut sheet`);
      await page.keyboard.press("Escape");
      await page.keyboard.press("t");
      await expect(page.getByTestId("file-finder-result").first()).toBeVisible();
      await serious(`${at} file finder`);
      await page.keyboard.press("Escape");
    }
  }
});
