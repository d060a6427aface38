/** Keyboard drag and drop on the board (dnd-kit) in e2e specs. */
import { expect, type Locator, type Page } from "@playwright/test";

/**
 * Presses `key` (an arrow) on a picked-up card until `moved` (the card where that arrow puts it)
 * shows, pressing again only while it has not: dnd-kit's KeyboardSensor starts listening for
 * arrows a task after the pick-up (a setTimeout), so an arrow pressed in between is lost.
 */
export async function pressUntilMoved(page: Page, key: string, moved: Locator): Promise<void> {
  await expect(async () => {
    if (!(await moved.isVisible())) await page.keyboard.press(key);
    await expect(moved).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}
