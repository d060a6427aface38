/**
 * Navigation and feedback (docs/ui.md "Loading states"): 404 pages inside a repository keep the
 * repository header and say what is missing ("Issue not found"), a private repository's 404 offers
 * "Sign in" to a signed-out visitor and returns there afterwards, a slow page shows its loading
 * skeleton, list rows do not prefetch on sight, the skip link jumps to the content, and the theme
 * menu switches and remembers light/dark.
 */
import { test, expect } from "./fixtures";
import { type Page, type Request } from "@playwright/test";
import { signUpIn } from "./session";

const PASSWORD = "correct horse battery";
const username = `nav${Date.now().toString(36)}`;

async function trpc(page: Page, baseURL: string, proc: string, data: unknown) {
  const r = await page.request.post(`/api/trpc/${proc}`, { headers: { origin: baseURL }, data });
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}

test("404s, loading skeletons, prefetching, skip link and theme", async ({ page, browser, baseURL }) => {
  await signUpIn(page.context(), username);
  const repo = await trpc(page, baseURL!, "repos.create", { name: "navigate" });
  await trpc(page, baseURL!, "repos.create", { name: "hidden", isPrivate: true });
  for (let i = 1; i <= 40; i++) await trpc(page, baseURL!, "issues.create", { repoId: repo.id, title: `Issue number ${i}` });

  // --- a missing issue: 404 status, the repository header stays, and it says "issue"
  const missing = await page.goto(`/${username}/navigate/issues/999`);
  expect(missing?.status()).toBe(404);
  await expect(page.getByTestId("repo-name")).toHaveText("navigate");
  await expect(page.getByTestId("repo-issues-tab")).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("heading", { name: "Issue not found" })).toBeVisible();
  await page.getByTestId("not-found-back").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/navigate/issues$`));

  // --- a missing branch: 404 under the header, not "issue"
  expect((await page.goto(`/${username}/navigate/tree/no-such-branch`))?.status()).toBe(404);
  await expect(page.getByTestId("repo-name")).toBeVisible();
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();

  // --- list rows are not prefetched on sight: none of the 20 issue links on the page is
  // prefetched until the pointer rests on one (the navigation links above may be)
  const prefetches: string[] = [];
  const count = (r: { headers(): Record<string, string>; url(): string }) => {
    if (r.headers()["next-router-prefetch"] && /\/issues\/\d+\?/.test(r.url())) prefetches.push(r.url());
  };
  page.on("request", count);
  await page.goto(`/${username}/navigate/issues`);
  await expect(page.getByTestId("issue-list")).toBeVisible();
  // the page had its chance: hydrated (links prefetch on sight from then on), then no request for 500 ms
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await page.waitForLoadState("networkidle");
  page.off("request", count);
  expect(prefetches, "issue rows prefetched on sight").toEqual([]);

  // --- a slow issue page shows its skeleton while it renders. The server's answer to the click
  // is held back until the test has looked for the skeleton, so how long the check takes on a
  // loaded machine does not matter. Hovering prefetches the page's loading state; the click shows
  // it only if Next holds a usable prefetch at that moment, so the page is hydrated first, the
  // prefetch is read to its end, and a click without it is tried again (up to four times).
  let release: (() => void) | null = null;
  await page.route("**/issues/40?_rsc=*", async (route) => {
    if (!route.request().headers()["next-router-prefetch"]) await new Promise<void>((r) => (release = r));
    await route.continue();
  });
  let sawSkeleton = false;
  for (let attempt = 0; attempt < 4 && !sawSkeleton; attempt++) {
    await page.goto(`/${username}/navigate/issues`);
    await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
    const link = page.getByRole("link", { name: "Issue number 40", exact: true });
    // The router reads a prefetch as far as it needs and then aborts it, so "ended" means
    // finished or failed. The route prefetch (not the `/_tree` one) carries the loading state.
    const isRoutePrefetch = (r: Request) =>
      /\/issues\/40\?_rsc=/.test(r.url()) && !!r.headers()["next-router-prefetch"] && !r.headers()["next-router-segment-prefetch"];
    const prefetched = Promise.race([
      page.waitForEvent("requestfinished", { predicate: isRoutePrefetch, timeout: 5000 }),
      page.waitForEvent("requestfailed", { predicate: isRoutePrefetch, timeout: 5000 }),
    ]).catch(() => null);
    await link.hover();
    await prefetched;
    // the router stores what it read once the page is idle again
    await page.evaluate(() => new Promise<void>((r) => requestIdleCallback(() => r(), { timeout: 1000 })));
    await link.click();
    sawSkeleton = await page
      .getByTestId("skeleton")
      .first()
      .waitFor({ state: "visible", timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    await expect.poll(() => release !== null, { message: "the click asked the server for the page" }).toBe(true);
    (release as unknown as () => void)();
    release = null;
    await expect(page.getByTestId("issue-page")).toBeVisible();
    await expect(page.getByTestId("skeleton")).toHaveCount(0);
  }
  expect(sawSkeleton, "the issue skeleton showed while the page was held back").toBe(true);
  await page.unroute("**/issues/40?_rsc=*");

  // --- the skip link is the first tab stop and moves focus to the content
  await page.goto(`/${username}/navigate`);
  await page.keyboard.press("Tab");
  await expect(page.getByTestId("skip-link")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();

  // --- theme menu: dark, remembered on the next page load; then back to system
  await page.getByTestId("theme-toggle").click();
  await page.getByTestId("theme-dark").click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe("rgb(13, 17, 23)");
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.getByTestId("theme-toggle").click();
  await page.getByTestId("theme-system").click();
  await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);

  // --- signed out: a private repository is a plain 404 (no header) with "Sign in", which comes back here
  const anonymous = await browser.newContext();
  const stranger = await anonymous.newPage();
  const hidden = await stranger.goto(`${baseURL}/${username}/hidden/issues`);
  expect(hidden?.status()).toBe(404);
  await expect(stranger.getByTestId("repo-name")).toHaveCount(0);
  await stranger.getByTestId("not-found-sign-in").click();
  await expect(stranger).toHaveURL(/\/signin\?callbackUrl=/);
  await stranger.getByLabel("Username").fill(username);
  await stranger.getByLabel("Password").fill(PASSWORD);
  await stranger.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(stranger).toHaveURL(new RegExp(`/${username}/hidden/issues$`));
  await expect(stranger.getByTestId("repo-name")).toHaveText("hidden");
  await anonymous.close();
});
