/**
 * docs/security.md in a real browser: no open redirect after sign-in ("Redirects after sign-in"),
 * security headers and a nonce CSP that the app runs under without violations, no framing of the
 * settings pages ("Security headers"), and "sign out everywhere" ending the other browser's
 * session and the service token ("Sessions and service tokens").
 */
import { signOutInUi } from "./session";
import { test, expect } from "./fixtures";
import { type Browser, type BrowserContext, type Page } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";

const PASSWORD = "correct horse battery";
const stamp = Date.now().toString(36);

async function signUpInUi(page: Page, username: string, callbackUrl?: string) {
  await page.goto(callbackUrl ? `/signup?callbackUrl=${callbackUrl}` : "/signup");
  await expect(page.getByTestId("signup-submit")).toBeEnabled(); // hydrated
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByTestId("signup-submit").click();
}

async function signInInUi(page: Page, username: string, callbackUrl: string) {
  await page.goto(`/signin?callbackUrl=${callbackUrl}`);
  await expect(page.getByTestId("signin-submit")).toBeEnabled();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByTestId("signin-submit").click();
}

/** A context whose console CSP violations are collected. */
async function watchedContext(browser: Browser): Promise<{ context: BrowserContext; page: Page; violations: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy|Refused to (execute|load|apply)/i.test(m.text())) violations.push(m.text());
  });
  return { context, page, violations };
}

test("sign-in never redirects off-site; a newline in callbackUrl is harmless", async ({ browser, baseURL }) => {
  const username = `redir${stamp}`;
  const { context, page } = await watchedContext(browser);
  // tab / newline tricks that browsers turn into //evil.example
  await signUpInUi(page, username, "/%09/evil.example/");
  await expect(page.getByTestId("user-menu")).toContainText(username);
  expect(new URL(page.url()).origin).toBe(baseURL);
  await signOutInUi(page);
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  for (const trick of ["/%0A/evil.example/", "/%5C/evil.example", "https://evil.example/", "//evil.example"]) {
    await signInInUi(page, username, trick);
    await expect(page.getByTestId("user-menu")).toContainText(username);
    expect(new URL(page.url()).origin, trick).toBe(baseURL);
    await signOutInUi(page);
    await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  }
  // signed in, the sign-in page redirects at once: a %0A must not break the Location header
  await signInInUi(page, username, "/settings/tokens");
  await expect(page).toHaveURL(/\/settings\/tokens$/);
  await expect(page.getByTestId("create-token-form")).toBeVisible();
  // the signed-in redirect itself, with this context's session cookie, read without following it
  const res = await page.request.get("/signin?callbackUrl=/a%0ASet-Cookie:%20x=1", { maxRedirects: 0 });
  expect(res.status()).toBeLessThan(400); // a redirect (or a page), never a 500
  const location = res.headers()["location"] ?? "";
  expect(location).not.toMatch(/[\r\n]/);
  if (location) expect(new URL(location, baseURL).origin).toBe(baseURL);
  expect(res.headersArray().some((h) => h.name.toLowerCase() === "set-cookie" && /^x=/.test(h.value))).toBe(false);
  expect((await context.cookies()).some((c) => c.name === "x")).toBe(false);
  await context.close();
});

test("pages carry a nonce CSP and security headers, run without violations, and cannot be framed", async ({
  browser,
  baseURL,
  request,
}) => {
  const username = `csp${stamp}`;
  const { context, page, violations } = await watchedContext(browser);
  await signUpInUi(page, username);
  await expect(page.getByTestId("user-menu")).toContainText(username);

  const res = await page.goto("/settings/tokens");
  const headers = res!.headers();
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["permissions-policy"]).toContain("camera=()");
  expect(headers["x-frame-options"]).toBe("DENY");
  const nonceA = /'nonce-([^']+)'/.exec(headers["content-security-policy"])![1];
  const again = await page.goto("/settings/tokens");
  expect(/'nonce-([^']+)'/.exec(again!.headers()["content-security-policy"])![1]).not.toBe(nonceA);

  // the app works under the policy: a client-side action (create a token) and a few pages
  await page.getByLabel("Name", { exact: true }).fill("csp check");
  await page.getByTestId("create-token-submit").click();
  await expect(page.getByTestId("new-token-value")).toBeVisible();
  for (const path of ["/", "/new", "/settings/sessions"]) await page.goto(path);
  expect(violations).toEqual([]);

  // API responses allow nothing
  const api = await request.get("/api/trpc/issues.priorities");
  expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(api.headers()["x-content-type-options"]).toBe("nosniff");

  // clickjacking: a page on another port of the same host (same-site, so the session cookie goes
  // along into the frame) frames the settings page → the browser refuses to render it
  const framed = `${baseURL}/settings/tokens`;
  const evil = http.createServer((_req, res) =>
    res
      .writeHead(200, { "content-type": "text/html" })
      .end(`<h1>win a prize</h1><iframe src="${framed}" width="800" height="600"></iframe>`),
  );
  await new Promise<void>((resolve) => evil.listen(0, "127.0.0.1", resolve));
  const attacker = await context.newPage();
  try {
    await attacker.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
    await expect.poll(() => attacker.frames().length).toBe(2);
    const frame = attacker.frames().find((f) => f !== attacker.mainFrame())!;
    // the frame's navigation has ended: refused, Chromium shows its error page (chrome-error://);
    // wrongly allowed, the frame is at the settings page and has rendered it
    await expect.poll(() => frame.url()).toMatch(/^(chrome-error:|https?:)/);
    if (frame.url() === framed) await frame.waitForLoadState("load");
    expect(
      await frame
        .getByText("Personal access tokens")
        .count()
        .catch(() => 0),
    ).toBe(0);
    expect(frame.url()).not.toBe(framed);
  } finally {
    evil.close();
  }
  await context.close();
});

test("sign out everywhere ends the other browser's session and its service token", async ({ browser, request }) => {
  const username = `everywhere${stamp}`;
  const first = await watchedContext(browser);
  await signUpInUi(first.page, username);
  await expect(first.page.getByTestId("user-menu")).toContainText(username);
  const second = await watchedContext(browser);
  await signInInUi(second.page, username, "/");
  await expect(second.page.getByTestId("user-menu")).toContainText(username);
  const jwt = (await second.context.cookies()).find((c) => c.name.endsWith("next-auth.session-token"))!.value;
  const bearer = { authorization: `Bearer ${jwt}` };
  expect((await request.get("/api/tokens", { headers: bearer })).status()).toBe(200);

  await first.page.goto("/settings/sessions");
  await expect(first.page.getByTestId("session-row")).toHaveCount(2);
  await expect(first.page.getByText("this browser")).toHaveCount(1);
  await first.page.getByTestId("sign-out-everywhere").click();
  await first.page.getByTestId("confirm-button").click();
  await expect(first.page).toHaveURL(/\/signin/);

  await second.page.reload();
  await expect(second.page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await expect(second.page.getByTestId("user-menu")).toHaveCount(0);
  expect((await request.get("/api/tokens", { headers: bearer })).status()).toBe(401);
  await first.context.close();
  await second.context.close();
});

test("malformed percent-escapes in paths are 400, not 500", async ({ request }) => {
  for (const path of [
    "/alice/pub/raw/main/%ZZ",
    "/api/trpc/%ZZ",
    "/alice/pub.git/%ZZ",
    "/alice/%E0%A4%A",
    "/api/tokens/%ED%A0%80",
    "/alice/pub/blob/main/%",
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(400);
    expect(await res.text()).toContain("malformed percent-escape");
  }
  expect((await request.get("/signin?callbackUrl=%ZZ")).status()).toBe(200);
});
