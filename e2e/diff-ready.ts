/** Waiting for a diff page (commit, compare, pull request Files tab) to take keys and clicks. */
import { expect, type Page } from "@playwright/test";

/**
 * Resolves once `page`'s shortcut listener is installed (`<html data-shortcuts="on">`) AND its diff
 * list has hydrated (`[data-keys="on"]` on the list, set by components/diff/use-diff-viewer.ts). The
 * list sits in a streamed Suspense boundary that can hydrate after the page's shell, so a key pressed
 * after the first marker alone can be lost.
 */
export async function diffReady(page: Page): Promise<void> {
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await expect(page.locator("[data-testid='diff-viewer'] [data-keys='on']")).toHaveCount(1);
}
