/**
 * A signed-in user for e2e specs, made through the API (sign-up, then next-auth's credentials
 * callback) in a browser context of its own: faster than the sign-up page, and one place for
 * what several specs need. Sign-ups are rate-limited per address (30 an hour per server), so each
 * user here signs up from an X-Forwarded-For address of its own; still make as few users as a
 * spec needs.
 */
import type { JsonRecord } from "../test/json";

/** A tRPC query's data: an object or a list, read by the specs field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of any shape, as JsonRecord
type JsonValue = any;
import { expect, type Browser, type BrowserContext, type Page } from "@playwright/test";

export const PASSWORD = "correct horse battery";

export interface E2EUser {
  username: string;
  context: BrowserContext;
  page: Page;
  /** A tRPC mutation as this user (same-origin, as the pages send it); the result's data. */
  trpc(proc: string, data: unknown): Promise<JsonRecord>;
  /** A new personal access token (repo:write) for git over HTTP. */
  token(): Promise<string>;
  /** `<baseURL>/<owner>/<name>.git` with this user and `secret` as credentials. */
  remote(owner: string, name: string, secret: string): string;
}

/**
 * Signs `username` up (password PASSWORD) and signs it in in `context`, through the API: its
 * pages and its `request` then carry the session. About 0.5 s, where the sign-up page takes ~2.5 s;
 * specs that test the sign-up page itself use the page.
 */
export async function signUpIn(context: BrowserContext, username: string): Promise<void> {
  // each user signs up from an address of its own (svc reads the client address from
  // X-Forwarded-For): sign-ups are limited to 30 an hour per address, and the suite makes more
  const address = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  expect(
    (
      await context.request.post("/api/trpc/users.signUp", {
        headers: { "x-forwarded-for": address },
        data: { username, password: PASSWORD },
      })
    ).status(),
  ).toBe(200);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  expect(
    (
      await context.request.post("/api/auth/callback/credentials", { form: { csrfToken, username, password: PASSWORD, json: "true" } })
    ).ok(),
  ).toBe(true);
}

/** Signs up `<prefix><stamp>` and signs it in in a new context with one page. */
export async function newUser(browser: Browser, baseURL: string, prefix: string, stamp = Date.now().toString(36)): Promise<E2EUser> {
  const username = `${prefix}${stamp}`;
  const context = await browser.newContext();
  await signUpIn(context, username);
  const page = await context.newPage();
  const origin = { origin: baseURL };
  return {
    username,
    context,
    page,
    async trpc(proc, data) {
      const r = await context.request.post(`/api/trpc/${proc}`, { headers: origin, data });
      expect(r.status(), await r.text()).toBe(200);
      return (await r.json()).result.data;
    },
    async token() {
      const r = await context.request.post("/api/tokens", { headers: origin, data: { name: "e2e push", scopes: ["repo:write"] } });
      expect(r.status(), await r.text()).toBe(201);
      return (await r.json()).token as string;
    },
    remote(owner, name, secret) {
      const u = new URL(`${baseURL}/${owner}/${name}.git`);
      u.username = username;
      u.password = secret;
      return u.toString();
    },
  };
}

/**
 * Signs out through the user menu once the page has hydrated (`<html data-shortcuts="on">`, set
 * by the root layout that also holds the menu): a click on the server-rendered menu button before
 * that opens nothing, and the test would wait for "Sign out" until it timed out.
 */
export async function signOutInUi(page: Page): Promise<void> {
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await page.getByTestId("user-menu").click();
  await page.getByTestId("sign-out").click();
}

/** A tRPC query as `user` (GET, as the pages send it); the result's data. Fails the test unless 200. */
export async function trpcQuery(user: E2EUser, proc: string, input: unknown): Promise<JsonValue> {
  const r = await user.context.request.get(`/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(r.status(), await r.text()).toBe(200);
  return (await r.json()).result.data;
}
