/**
 * Settings → AI (docs/ai.md "Repository keys (`repoAiKeys`)"): an admin adds a repository key in
 * the browser, sees it masked (never the key itself, anywhere on the page) with the engine now in
 * use, changes only its model, and deletes it; the section passes axe-core at phone width in the
 * dark theme without horizontal scroll.
 */
import { test, expect } from "./fixtures";
import { AxeBuilder } from "./axe";
import { newUser } from "./session";

const SECRET = "sk-e2e-do-not-show-me-0123WXYZ";

test("set an AI key in settings, see it masked, change its model, delete it", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "aikeys");
  await user.trpc("repos.create", { name: "ai-keys", isPrivate: true });
  const page = user.page;
  await page.goto(`/${user.username}/ai-keys/settings#ai`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  const section = page.getByTestId("settings-ai");
  await expect(section.getByRole("heading", { name: "AI", exact: true })).toBeVisible();
  await expect(section.getByTestId("ai-engine")).toHaveText("local");
  await expect(section.getByTestId("no-ai-keys")).toBeVisible();

  // add: the key goes into a password field, the answer shows only its last 4 characters
  const keyInput = section.getByLabel("API key");
  await expect(keyInput).toHaveAttribute("type", "password");
  await keyInput.fill(SECRET);
  await section.getByLabel("Model", { exact: true }).fill("gpt-e2e");
  await section.getByTestId("save-ai-key").click();
  await expect(section.getByTestId("ai-key-saved")).toContainText("••••WXYZ");
  const row = section.getByTestId("ai-key-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("ai-key-mask")).toHaveText("••••WXYZ");
  await expect(row).toContainText("openai:gpt-e2e");
  await expect(section.getByTestId("ai-engine")).toHaveText("openai:gpt-e2e");
  await expect(section.getByTestId("ai-engine-in-use")).toContainText("this repository's own key");
  await expect(keyInput).toHaveValue("");
  expect(await page.content()).not.toContain("do-not-show-me");
  // after a reload too (server-rendered)
  await page.reload();
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  expect(await page.content()).not.toContain("do-not-show-me");

  // change only the model: the key stays
  await section.getByLabel("Model", { exact: true }).fill("gpt-e2e-2");
  await section.getByTestId("save-ai-key").click();
  await expect(section.getByTestId("ai-engine")).toHaveText("openai:gpt-e2e-2");
  await expect(row.getByTestId("ai-key-mask")).toHaveText("••••WXYZ");

  // phone width, dark theme: no serious or critical axe violations, no horizontal scroll
  await page.context().addCookies([{ name: "svc-theme", value: "dark", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(section.getByTestId("ai-key-row")).toBeVisible();
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  const axe = await new AxeBuilder({ page })
    .include("[data-testid='settings-ai']")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  // delete, after a confirmation
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await section.getByRole("button", { name: "Delete the OpenAI key" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete AI key?" });
  await expect(dialog).toContainText("••••WXYZ");
  await dialog.getByTestId("confirm-button").click();
  await expect(section.getByTestId("no-ai-keys")).toBeVisible();
  await expect(section.getByTestId("ai-engine")).toHaveText("local");
  await user.context.close();
});
