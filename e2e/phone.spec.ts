/**
 * Phone size (390×844; docs/ui.md "Issues"): the issue page fits the viewport (no horizontal
 * scroll, even with long titles and relations), status and priority are reachable near the title,
 * and the target of a relation shows it on its timeline.
 */
import { test, expect } from "./fixtures";
import { signUpIn } from "./session";

const stamp = Date.now().toString(36);

test.use({ viewport: { width: 390, height: 844 } });

test("the issue page fits a phone and shows its properties near the title", async ({ page }) => {
  const username = `phone${stamp}`;
  await signUpIn(page.context(), username);

  const trpc = async (path: string, data: unknown) => {
    const r = await page.request.post(`/api/trpc/${path}`, { headers: { origin: test.info().project.use.baseURL! }, data });
    expect(r.status(), await r.text()).toBe(200);
    return (await r.json()).result.data;
  };
  const repo = await trpc("repos.create", { name: "mobile" });
  const long = "A very long issue title that keeps going so that it cannot fit on a phone screen at all";
  const target = await trpc("issues.create", { repoId: repo.id, title: `${long} (blocked one)` });
  const issue = await trpc("issues.create", {
    repoId: repo.id,
    title: `${long} — and a word: ${"x".repeat(80)}`,
    body: "Steps: open the app.",
  });
  await trpc("issues.addRelation", { repoId: repo.id, sourceNumber: issue.number, targetNumber: target.number, type: "blocks" });

  for (const n of [issue.number, target.number]) {
    await page.goto(`/${username}/mobile/issues/${n}`);
    await expect(page.getByTestId("issue-page")).toBeVisible();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, `issue #${n} is ${scrollWidth}px wide in a ${innerWidth}px viewport`).toBeLessThanOrEqual(innerWidth);
    // the status and priority pickers are on the first screen, before the description
    const status = await page.getByTestId("sidebar-status").boundingBox();
    expect(status!.y + status!.height).toBeLessThanOrEqual(844);
    if (n === target.number) {
      // the target of a relation shows it from its side: "blocked by"
      await expect(page.getByTestId("timeline")).toContainText(`marked this as blocked by #${issue.number}`);
    }
    if (n === issue.number) {
      const body = await page.getByTestId("issue-page").getByText("Steps: open the app.").boundingBox();
      expect(status!.y).toBeLessThan(body!.y);
    }
  }
});
