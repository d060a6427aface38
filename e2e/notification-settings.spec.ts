/**
 * Settings → Notifications (docs/notifications-email.md "Settings"): the e2e server has no
 * SMTP_URL, so the page says email is off on this server; the settings stay editable — turn a
 * reason off and the daily digest on, save, reload, and they are persisted. The page passes axe.
 */
import { test, expect } from "./fixtures";
import { noAxeViolations } from "./axe";
import { newUser } from "./session";

test("notification settings: email off notice, toggle, save, reload, persisted; axe", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "notify");
  const page = user.page;
  await page.goto("/settings/notifications");
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  await expect(page.getByTestId("email-off-notice")).toContainText("Email is off on this server");
  await expect(page.getByTestId("settings-nav-notifications")).toHaveAttribute("aria-current", "page");
  const save = page.getByTestId("save-notification-settings");
  await expect(save).toBeDisabled();
  await noAxeViolations(page, "notification settings");

  const subscribed = page.getByRole("checkbox", { name: /^Watching/ });
  const digest = page.getByRole("checkbox", { name: /^Daily digest/ });
  await expect(subscribed).toBeChecked();
  await expect(digest).not.toBeChecked();
  await subscribed.uncheck();
  await digest.check();
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText("Notification settings saved")).toBeVisible();
  await expect(save).toBeDisabled();

  await page.reload();
  await expect(page.getByRole("checkbox", { name: /^Watching/ })).not.toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^Daily digest/ })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: /^Mentioned/ })).toBeChecked();

  // email off: the reasons and the digest cannot be changed until it is on again
  await page.getByRole("checkbox", { name: /^Email me notifications/ }).uncheck();
  await expect(page.getByRole("checkbox", { name: /^Mentioned/ })).toBeDisabled();
  await noAxeViolations(page, "notification settings, email off");
});
