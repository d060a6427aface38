/**
 * Single sign-on (docs/security.md "Single sign-on (OpenID Connect)") driven through the sign-in
 * page in Chromium against an OpenID provider on loopback (test/fixtures/oidc-provider.ts, the
 * `oidc-provider` library). The suite's shared server has no OIDC_* settings, so this spec starts
 * svc of its own (`node scripts/start.mjs`, the build the shared server made) on a free port with a
 * fresh DATA_DIR and OIDC_* pointing at the provider, and restarts it with OIDC_ONLY=1 at the end.
 * Covers: the first sign-in creates the account (username made unique, an existing account with
 * the same email not linked), the next one finds it, linking from Settings → Account, OIDC_ONLY.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { PASSWORD, signUpIn } from "./session";
import { startOidcProvider, type TestOidcProvider } from "../test/fixtures/oidc-provider";

test.describe.configure({ mode: "serial" });

let idp: TestOidcProvider;
let svc: ChildProcess | undefined;
let svcUrl = "";
let dataDir = "";

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Starts svc on svcUrl's port with OIDC_* for `idp` (and `extra` env); resolves once next-auth answers. */
async function startSvc(extra: Record<string, string> = {}): Promise<void> {
  const port = new URL(svcUrl).port;
  let stderr = "";
  svc = spawn(process.execPath, ["scripts/start.mjs"], {
    env: {
      ...process.env,
      PORT: port,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      NEXTAUTH_URL: svcUrl,
      NEXT_TELEMETRY_DISABLED: "1",
      SVC_SHUTDOWN_GRACE_MS: "2000",
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      OIDC_NAME: "Test IdP",
      ...extra,
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  svc.stderr!.on("data", (c: Buffer) => void (stderr = (stderr + c.toString()).slice(-8000)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${svcUrl}/api/auth/providers`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (svc.exitCode !== null || Date.now() > deadline) throw new Error(`svc did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function stopSvc(): Promise<void> {
  const child = svc;
  svc = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Signs in through the sign-in page's single sign-on button as `login` at the provider; → the page, signed in. */
async function signInWithIdp(context: BrowserContext, login: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByTestId("oidc-sign-in").click();
  await page.getByLabel("Login").fill(login);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(`${svcUrl}/`);
  return page;
}

/** The username /settings/account says `page`'s context is signed in as. */
async function signedInAs(page: Page): Promise<string> {
  await page.goto("/settings/account");
  return (await page.getByTestId("view-profile").getAttribute("href"))!.slice(1);
}

const newContext = (browser: Browser) => browser.newContext({ baseURL: svcUrl });

test.beforeAll(async () => {
  const port = await freePort();
  svcUrl = `http://localhost:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), "svc-e2e-oidc-"));
  idp = await startOidcProvider(`${svcUrl}/api/auth/callback/oidc`);
  await startSvc();
});

test.afterAll(async () => {
  await stopSvc();
  await idp?.close();
});

test("first sign-in creates the account (unique username, no linking by email); the next finds it", async ({ browser }) => {
  // a password account that has the username and the email the provider will send
  const owner = await newContext(browser);
  const signUp = await owner.request.post("/api/trpc/users.signUp", {
    data: { username: "olive", password: PASSWORD, email: "olive@corp.example" },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  idp.accounts.set("olive", { preferred_username: "olive", name: "Olive Oyl", email: "Olive@corp.example", email_verified: true });

  const first = await newContext(browser);
  const signin = await first.newPage();
  await signin.goto("/signin");
  await expect(signin.getByTestId("oidc-sign-in")).toHaveText("Sign in with Test IdP");
  await expect(signin.getByTestId("signin-form")).toBeVisible();
  await noAxeViolations(signin, "sign-in page with single sign-on");
  const page = await signInWithIdp(first, "olive");
  expect(await signedInAs(page)).toBe("olive-2");
  // the email belongs to the password account: the new one does not take it
  await expect(page.getByLabel("Email")).toHaveValue("");
  await expect(page.getByLabel("Name")).toHaveValue("Olive Oyl");

  const again = await newContext(browser);
  expect(await signedInAs(await signInWithIdp(again, "olive"))).toBe("olive-2");
  await Promise.all([owner.close(), first.close(), again.close()]);
});

test("a signed-in user links an identity from Settings → Account; signing in with it lands on that account", async ({ browser }) => {
  const context = await newContext(browser);
  await signUpIn(context, "linker");
  const page = await context.newPage();
  await page.goto("/settings/account");
  await expect(page.getByTestId("sso-section")).toContainText("No identity linked");
  await page.getByTestId("sso-link").click();
  await page.getByLabel("Login").fill("lynn");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL(/\/settings\/account/);
  await expect(page.getByTestId("sso-identity")).toHaveCount(1);
  await expect(page.getByTestId("sso-identity")).toContainText("sub-lynn");
  // the callback's new session replaced the one the link started from: one session, the current one
  const sessions = (await (await context.request.get("/api/trpc/users.sessions")).json()).result.data as { current: boolean }[];
  expect(sessions.map((s) => s.current)).toEqual([true]);
  await noAxeViolations(page, "account settings with a linked identity");

  const other = await newContext(browser);
  expect(await signedInAs(await signInWithIdp(other, "lynn"))).toBe("linker");

  // the identity is linked: another user cannot link it
  const thief = await newContext(browser);
  await signUpIn(thief, "thief");
  const thiefPage = await thief.newPage();
  await thiefPage.goto("/settings/account");
  await thiefPage.getByTestId("sso-link").click();
  await thiefPage.getByLabel("Login").fill("lynn");
  await thiefPage.getByRole("button", { name: "Continue" }).click();
  await thiefPage.waitForURL(/sso=linked-elsewhere/);
  await expect(thiefPage.getByTestId("form-error")).toContainText("already linked to another account");
  await Promise.all([context.close(), other.close(), thief.close()]);
});

test("OIDC_ONLY=1: the sign-in page offers single sign-on alone; password sign-in and sign-up are refused", async ({ browser }) => {
  await stopSvc();
  await startSvc({ OIDC_ONLY: "1" });
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.goto("/signin");
  await expect(page.getByTestId("oidc-sign-in")).toBeVisible();
  await expect(page.getByTestId("signin-form")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Create an account" })).toHaveCount(0);
  await noAxeViolations(page, "sign-in page, OIDC_ONLY");
  await page.goto("/signup");
  await expect(page.getByTestId("signup-off")).toBeVisible();

  const signUp = await context.request.post("/api/trpc/users.signUp", { data: { username: "late", password: PASSWORD } });
  expect(signUp.status()).toBe(403);
  const { csrfToken } = await (await context.request.get("/api/auth/csrf")).json();
  await context.request.post("/api/auth/callback/credentials", {
    form: { csrfToken, username: "linker", password: PASSWORD, json: "true" },
  });
  expect(await (await context.request.get("/api/auth/session")).json()).toEqual({});

  // single sign-on still signs in
  expect(await signedInAs(await signInWithIdp(context, "olive"))).toBe("olive-2");
  await context.close();
});
