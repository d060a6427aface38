/**
 * Passkeys (docs/security.md "Passkeys") with Chromium's virtual authenticator (CDP WebAuthn
 * domain: an internal, resident-key, user-verifying authenticator that answers at once): add one
 * on Settings → Security and rename it; sign out; sign in with it and no password; sign in with
 * the password, which now stops at the second step, and finish it with the passkey; remove it.
 * The pages pass axe.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser, PASSWORD, signOutInUi } from "./session";

test("passkeys: register, rename, passwordless sign-in, second factor, remove; axe", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "passkey");
  const page = user.page;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });

  // register and rename
  await page.goto("/settings/security");
  await expect(page.getByTestId("passkeys-section")).toContainText("No passkeys yet.");
  await noAxeViolations(page, "security settings, no passkey");
  await page.getByLabel("New passkey name").fill("Laptop");
  await page.getByTestId("add-passkey").click();
  await expect(page.getByTestId("passkey-name")).toHaveText("Laptop");
  expect((await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials).toHaveLength(1);
  await page.getByRole("button", { name: "Rename Laptop" }).click();
  await page.getByLabel("Passkey name", { exact: true }).fill("Work laptop");
  await page.getByTestId("passkey-row").getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("passkey-name")).toHaveText("Work laptop");
  await noAxeViolations(page, "security settings, one passkey");
  await page.reload();
  await expect(page.getByTestId("passkey-name")).toHaveText("Work laptop");
  await expect(page.getByTestId("passkey-row")).toContainText("never used");

  // passwordless
  await signOutInUi(page);
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fsecurity");
  await noAxeViolations(page, "sign-in page with the passkey button");
  await page.getByTestId("passkey-sign-in").click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByTestId("user-menu")).toContainText(user.username);
  await expect(page.getByTestId("passkey-row")).toContainText("last used");

  // second factor after the password
  await signOutInUi(page);
  await expect(page.getByRole("link", { name: "Sign in" }).first()).toBeVisible();
  await page.goto("/signin?callbackUrl=%2Fsettings%2Fsecurity");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(PASSWORD);
  // the form always goes on through the second step's page (components/auth/two-factor-gate.ts);
  // the password alone signs nobody in: the session waits there for its second factor
  await page.getByTestId("signin-submit").click();
  await page.waitForURL(/\/signin\/two-factor/);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1); // hydrated: the button's click is handled
  await expect(page.getByTestId("passkey-second-factor-button")).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  await noAxeViolations(page, "second step of signing in");
  await page.getByRole("button", { name: "Use a passkey" }).click();
  await expect(page).toHaveURL(/\/settings\/security$/);
  await expect(page.getByTestId("user-menu")).toContainText(user.username);

  // remove
  await page.getByRole("button", { name: "Remove Work laptop" }).click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("Work laptop");
  await noAxeViolations(page, "remove passkey confirmation");
  await page.getByTestId("confirm-button").click();
  await expect(page.getByTestId("passkey-row")).toHaveCount(0);
  await expect(page.getByTestId("passkeys-section")).toContainText("No passkeys yet.");
});
