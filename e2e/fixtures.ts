/**
 * The `test` every spec imports: Playwright's, with one change — `page.goto` and `page.reload`
 * return once the page has hydrated, on every page of every browser context a spec opens (the
 * default `page`, `browser.newContext()`, `context.newPage()`).
 *
 * Why: svc renders pages on the server, so a button or a menu is visible (and Playwright's
 * actionability checks pass) before React has attached its handlers; a click or a key pressed in
 * that window is lost, and the spec fails only when the machine is busy (CI counts a test that
 * passes on retry as failed: scripts/test-steps.mjs). The shell marks hydration with
 * `<html data-shortcuts="on">` (components/keyboard/use-shortcuts.ts, mounted by the top bar in the
 * root layout, so every HTML page has it). Parts streamed in a Suspense boundary hydrate later and
 * keep their own markers (the diff list's `data-keys="on"`: e2e/diff-ready.ts).
 *
 * A navigation that is not an HTML page (a file download, JSON, an error without the layout) is
 * returned as it is; a page that never marks itself returns after HYDRATION_WAIT_MS and the spec's
 * own assertions decide.
 */
import { test as base, type BrowserContext, type Page, type Response } from "@playwright/test";

export { expect } from "@playwright/test";

/** The longest `goto`/`reload` waits for the hydration marker after the load event (ms). */
const HYDRATION_WAIT_MS = 15_000;

const patched = new WeakSet<Page>();

async function hydrated(page: Page, response: Response | null): Promise<void> {
  if (!response || !(response.headers()["content-type"] ?? "").includes("text/html")) return;
  await page
    .locator("html[data-shortcuts='on']")
    .waitFor({ state: "attached", timeout: HYDRATION_WAIT_MS })
    .catch(() => undefined);
}

function waitForHydration(page: Page): void {
  if (patched.has(page)) return;
  patched.add(page);
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await hydrated(page, response);
    return response;
  };
  page.reload = async (options) => {
    const response = await reload(options);
    await hydrated(page, response);
    return response;
  };
}

function watchContext(context: BrowserContext): void {
  for (const page of context.pages()) waitForHydration(page);
  context.on("page", waitForHydration);
}

export const test = base.extend({
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      const newPage = browser.newPage.bind(browser);
      browser.newContext = async (options) => {
        const context = await newContext(options);
        watchContext(context);
        return context;
      };
      browser.newPage = async (options) => {
        const page = await newPage(options);
        waitForHydration(page);
        return page;
      };
      await use(browser);
    },
    { scope: "worker" },
  ],
  context: async ({ context }, use) => {
    watchContext(context);
    await use(context);
  },
});
