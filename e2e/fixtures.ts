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
 * root layout, so every HTML page has it). Parts streamed in a Suspense boundary
 * hydrate later (every page under a loading.tsx): `goto` also waits until React has hydrated every
 * element with a data-testid (it sets `__reactFiber$…` on each); listeners a component installs in
 * an effect keep their own markers (the diff list's `data-keys="on"`: e2e/diff-ready.ts; the triage
 * queue's).
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
  const marked = await page
    .locator("html[data-shortcuts='on']")
    .waitFor({ state: "attached", timeout: HYDRATION_WAIT_MS })
    .then(() => true)
    .catch(() => false);
  if (!marked) return;
  // A page under a loading.tsx streams in its own Suspense boundary and hydrates after the shell.
  // React gives every element it has hydrated a `__reactFiber$…` property: wait until every
  // element with a data-testid has one (HTML set through dangerouslySetInnerHTML has no test ids).
  await page
    .waitForFunction(
      () => {
        for (const el of document.querySelectorAll("[data-testid]")) {
          if (!Object.keys(el).some((k) => k.startsWith("__reactFiber$"))) return false;
        }
        return true;
      },
      null,
      { timeout: HYDRATION_WAIT_MS, polling: 50 },
    )
    .catch(async () => {
      const late = await page
        .evaluate(() =>
          [...document.querySelectorAll("[data-testid]")]
            .filter((el) => !Object.keys(el).some((k) => k.startsWith("__reactFiber$")))
            .map((el) => el.getAttribute("data-testid"))
            .slice(0, 5),
        )
        .catch(() => []);
      console.warn(`[fixtures] ${page.url()}: not hydrated after ${HYDRATION_WAIT_MS} ms: ${late.join(", ")}`);
    });
  // React runs a hydrated boundary's effects (listeners installed in useEffect) in a task it
  // schedules after the commit: let a frame and a task pass so they have run
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => setTimeout(done, 0)))).catch(() => undefined);
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
