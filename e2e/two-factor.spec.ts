/**
 * Two-factor authentication (docs/security.md "Two-factor authentication"): Settings → Security
 * enables TOTP (the key read from the page, codes computed here with otplib) and shows ten
 * recovery codes once; signing in with the password then asks for the code on
 * /signin/two-factor (a wrong code refused), and a recovery code works the same way, once.
 * Pages pass axe.
 */
import { generate } from "otplib";
import type { Page } from "@playwright/test";
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser, PASSWORD, signOutInUi } from "./session";

/** The TOTP code for `secret` `offsetSteps` × 30 s from now. */
const codeAt = (secret: string, offsetSteps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSteps * 30 });

/** The password step of the sign-in page, for `username`, returning to /settings/security. */
async function passwordStep(page: Page, username: string): Promise<void> {
  await expect(page.getByTestId("user-menu")).toHaveCount(0); // signed out
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fsecurity");
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByTestId("signin-submit").click();
  await expect(page).toHaveURL(/\/signin\/two-factor\?callbackUrl=%2Fsettings%2Fsecurity/);
}

test("two-factor: enable in settings, sign in with a code, then with a recovery code; axe", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "tfa");
  const page = user.page;
  await page.goto("/settings/security");
  await expect(page.getByRole("heading", { name: "Password and authentication" })).toBeVisible();
  await noAxeViolations(page, "security settings, two-factor off");

  await page.getByTestId("two-factor-enable").click();
  const secret = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expect(page.getByAltText("QR code for your authenticator app")).toBeVisible();
  await noAxeViolations(page, "security settings, setup");
  await page.getByLabel("Code from the app").fill(await codeAt(secret));
  await page.getByTestId("two-factor-confirm").click();
  await expect(page.getByTestId("recovery-code")).toHaveCount(10);
  const recovery = await page.getByTestId("recovery-code").allTextContents();
  await noAxeViolations(page, "security settings, recovery codes");
  await page.getByTestId("recovery-codes-done").click();
  await expect(page.getByTestId("two-factor-status")).toContainText("10 recovery codes left");

  // sign out; the password alone no longer signs in
  await signOutInUi(page);
  await passwordStep(page, user.username);
  await expect(page.getByLabel("Authentication code")).toHaveAttribute("autocomplete", "one-time-code");
  await noAxeViolations(page, "two-factor sign-in step");
  await page.goto("/settings/security"); // still signed out: the session is pending
  await expect(page).toHaveURL(/\/signin/);
  await page.goto("/signin/two-factor?callbackUrl=%2Fsettings%2Fsecurity");
  await page.getByLabel("Authentication code").fill("000000" === (await codeAt(secret)) ? "111111" : "000000");
  await page.getByTestId("two-factor-submit").click();
  await expect(page.getByTestId("form-error")).toContainText(/incorrect/i);
  await page.getByLabel("Authentication code").fill(await codeAt(secret, 1)); // the next step: never the one just used
  await page.getByTestId("two-factor-submit").click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByTestId("two-factor-status")).toContainText("Enabled");

  // the recovery code path
  await signOutInUi(page);
  await passwordStep(page, user.username);
  await page.getByTestId("two-factor-toggle").click();
  await page.getByLabel("Recovery code").fill(recovery[0]!);
  await noAxeViolations(page, "two-factor sign-in step, recovery code");
  await page.getByTestId("two-factor-submit").click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByTestId("two-factor-status")).toContainText("9 recovery codes left");
  await user.context.close();
});
