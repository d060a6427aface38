/** axe-core checks shared by the e2e specs. */
import { expect, type Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";

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
