/**
 * axe-core for the e2e specs: every spec imports `AxeBuilder` from here, not from
 * @axe-core/playwright. It is the same builder, except that `analyze()` first waits until the
 * page's CSS transitions and animations have finished: axe reads the computed colours, and a
 * button still fading into its hover or dark colour (the mouse left over it by an earlier click,
 * a theme just switched) measured as low contrast once in CI.
 */
import { expect, type Page } from "@playwright/test";
import { AxeBuilder as Base } from "@axe-core/playwright";

/** The longest `analyze()` waits for transitions to end (ms); then it checks the page as it is. */
const SETTLE_WAIT_MS = 5_000;

/** Waits until no finite CSS transition or animation is running on `page` (endless ones, like a spinner, are ignored). */
export async function settled(page: Page): Promise<void> {
  await page
    .waitForFunction(
      () => document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getComputedTiming().endTime === Infinity),
      null,
      { timeout: SETTLE_WAIT_MS, polling: 50 },
    )
    .catch(() => undefined);
}

/** @axe-core/playwright's builder whose `analyze()` runs once the page has settled (see above). */
export class AxeBuilder extends Base {
  private readonly settlePage: Page;
  constructor(params: ConstructorParameters<typeof Base>[0]) {
    super(params);
    this.settlePage = params.page;
  }
  override async analyze(): ReturnType<Base["analyze"]> {
    await settled(this.settlePage);
    return super.analyze();
  }
}

/** No serious or critical WCAG 2.1 A/AA violations on `page` as it is now (`label` names the state in the failure). */
export async function noAxeViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(
    results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`),
    label,
  ).toEqual([]);
}
