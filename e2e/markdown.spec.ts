/**
 * Markdown and the code view in a real browser (docs/ui.md "Markdown", "Code view"): a README with
 * raw HTML (<details>, <p align>, <img>), a table of contents linking to a heading (anchor ids
 * prefixed with user-content-), a relative image served by the raw route, no script from the README
 * running, and an ~860 KB JavaScript file (above the highlighting limit, below the read limit)
 * shown line by line with line numbers.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { mustRunGit, writeFile } from "./git";

const PASSWORD = "correct horse battery";
const username = `md${Date.now().toString(36)}`;
const repoName = "markdown-demo";

// a 1x1 transparent PNG
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

const README = [
  "# Markdown demo",
  "",
  "## Contents",
  "",
  "- [Usage notes](#usage-notes)",
  "",
  '<p align="center"><img src="docs/pixel.png" alt="pixel logo" width="40"></p>',
  "",
  "<details>",
  "<summary>Click to expand</summary>",
  "",
  "Hidden **bold** content",
  "",
  "</details>",
  "",
  '<img src="x" onerror="window.__xss = 1"><script>window.__xss = 2</script>',
  "",
  ...Array.from({ length: 80 }, (_, i) => `Filler paragraph ${i + 1} so the heading is below the fold.\n`),
  "## Usage notes",
  "",
  "The end.",
  "",
].join("\n");

const LINE = "export const value = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => n * 2).join(', ');";
const BIG_LINES = Math.ceil(860_000 / (LINE.length + 1));

let work = "";
test.beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-markdown-"));
});
test.afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function signUp(page: Page) {
  const r = await page.request.post("/api/trpc/users.signUp", { data: { username, password: PASSWORD } });
  expect(r.status()).toBe(200);
  const { csrfToken } = await (await page.request.get("/api/auth/csrf")).json();
  const signIn = await page.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username, password: PASSWORD, json: "true" },
  });
  expect(signIn.ok()).toBe(true);
}

test("README raw HTML, TOC anchors, relative images and a large file line by line", async ({ page }) => {
  test.setTimeout(180_000);
  const origin = test.info().project.use.baseURL!;
  await signUp(page);
  const created = await page.request.post("/api/trpc/repos.create", { headers: { origin }, data: { name: repoName, isPrivate: false } });
  expect(created.status()).toBe(200);
  const tokenRes = await page.request.post("/api/tokens", {
    headers: { origin },
    data: { name: "e2e markdown", scopes: ["repo:read", "repo:write"] },
  });
  expect(tokenRes.status()).toBe(201);
  const { token } = await tokenRes.json();

  // --- push the fixture with the git CLI
  const home = path.join(work, "home");
  const dir = path.join(work, "repo");
  mkdirSync(home);
  mkdirSync(dir);
  const git = (...args: string[]) => mustRunGit(home, dir, args);
  git("init", "--quiet");
  writeFile(dir, "README.md", README);
  mkdirSync(path.join(dir, "docs"));
  writeFileSync(path.join(dir, "docs/pixel.png"), PNG);
  writeFile(dir, "dist/big.js", Array.from({ length: BIG_LINES }, () => LINE).join("\n") + "\n");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Markdown fixture");
  const remote = new URL(`/${username}/${repoName}.git`, origin);
  remote.username = username;
  remote.password = token;
  git("push", "--quiet", remote.toString(), "main");

  // --- README: raw HTML rendered as elements, sanitized
  await page.goto(`/${username}/${repoName}`);
  const readme = page.getByTestId("readme");
  await expect(readme.getByRole("heading", { level: 1, name: "Markdown demo" })).toBeVisible();
  await expect(readme).not.toContainText("<details>");
  const details = readme.locator("details");
  await expect(details).toHaveCount(1);
  await expect(details.locator("summary")).toHaveText("Click to expand");
  await expect(details.locator("strong")).toBeHidden();
  await details.locator("summary").click();
  await expect(details.locator("strong")).toHaveText("bold");
  await expect(readme.locator('p[align="center"]')).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(readme.locator("script")).toHaveCount(0);
  await expect(readme.locator("[onerror]")).toHaveCount(0);

  // the relative image comes from the raw route and loads
  const logo = readme.getByRole("img", { name: "pixel logo" });
  await expect(logo).toHaveAttribute("src", `/${username}/${repoName}/raw/main/docs/pixel.png`);
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(1);

  // headings carry prefixed ids and an anchor link; the TOC link scrolls to the heading
  const target = readme.locator("h2#user-content-usage-notes");
  await expect(target).toHaveCount(1);
  await expect(target.getByTestId("heading-anchor")).toHaveAttribute("href", "#user-content-usage-notes");
  await expect(target).not.toBeInViewport();
  await readme.getByRole("link", { name: "Usage notes" }).click();
  await expect(page).toHaveURL(/#user-content-usage-notes$/);
  await expect(target).toBeInViewport();

  // --- the large file: plain text, one row per line, numbered
  await page.goto(`/${username}/${repoName}/blob/main/dist/big.js`);
  const code = page.getByTestId("code-view");
  await expect(code).toHaveAttribute("data-lang", "none", { timeout: 60_000 });
  await expect(page.getByText("Syntax highlighting is off")).toBeVisible();
  await expect(page.getByTestId("too-large-notice")).toHaveCount(0);
  await expect(code.locator("span.line")).toHaveCount(BIG_LINES);
  const rows = await code.evaluate((el) => {
    const box = (id: string) => el.querySelector(`#${id}`)!.getBoundingClientRect();
    const [a, b, c] = [box("L1"), box("L2"), box("L3")];
    const number = getComputedStyle(el.querySelector("#L2 > a")!, "::before").content;
    return { step1: b.top - a.top, step2: c.top - b.top, sameColumn: a.left === b.left && b.left === c.left, number };
  });
  // each line on its own row (not all lines side by side on one row)
  expect(rows.step1).toBeGreaterThan(0);
  expect(rows.step2).toBeGreaterThan(0);
  expect(rows.sameColumn).toBe(true);
  // the line number is drawn by CSS (a counter in the line link's ::before)
  expect(rows.number).not.toMatch(/^(none|normal)$/);
  await page.screenshot({ path: test.info().outputPath("large-file.png") });
});
