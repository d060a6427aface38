/**
 * The AI writing helpers in a real browser (docs/api.md "AI writing helpers (`ai` router;
 * docs/ai.md)"), with the local engine (the e2e server has no provider key): on the compare page
 * "Generate description" fills the title and body from the branch's commits, labelled with its
 * engine, and the pull request is created with them; in the squash merge box "Generate message"
 * writes the squash commit message with the other author's Co-authored-by trailer. At phone width
 * in dark mode, checked with axe-core.
 */
import { test, expect } from "./fixtures";
import { type Page } from "@playwright/test";
import { AxeBuilder } from "./axe";
import { newUser } from "./session";
import { pushInitial } from "./pull-fixture";

const stamp = Date.now().toString(36);

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join("; ")})`,
    );
}

test("Generate description fills the create form; Generate message writes the squash message", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "aiw", stamp);
  const { username, context, page } = user;
  await context.addCookies([{ name: "svc-theme", value: "dark", url: baseURL! }]);
  await page.setViewportSize({ width: 390, height: 844 });
  const name = `paging${stamp}`;
  const repo = await user.trpc("repos.create", { name });
  const clone = await pushInitial(user, name, { "README.md": "# Paging\n", "server/api/list.ts": "export const list = 1;\n" });
  clone.git("checkout", "--quiet", "-b", "feature/paged-lists");
  clone.commit(
    { "server/api/list.ts": "export const list = 2;\nexport const cursor = true;\n" },
    "feat(api): add cursor pagination to list endpoints",
  );
  clone.commit({ "docs/api.md": "# Cursors\n" }, "docs: describe the cursor parameter");
  clone.git(
    "commit",
    "--quiet",
    "--allow-empty",
    "--author=Grace Hopper <grace@example.com>",
    "-m",
    "fix(api): keep the order stable across pages",
  );
  clone.push("feature/paged-lists");

  // the compare page: generate, read the result, edit nothing, create
  await page.goto(`/${username}/${name}/compare/main...feature/paged-lists`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  const form = page.getByTestId("create-pull-form");
  await form.getByTestId("generate-description").click();
  await expect(form.getByTestId("create-pull-title")).toHaveValue("feat(api): add cursor pagination to list endpoints");
  await expect(form.getByTestId("ai-engine-label")).toHaveText("Written by the local engine");
  const body = form.getByTestId("create-pull-body");
  await expect(body).toHaveValue(/## Summary/);
  await expect(body).toHaveValue(/### Bug fixes\n\n- api: Keep the order stable across pages/);
  await expect(body).toHaveValue(/### Documentation/);
  expect(await seriousViolations(page)).toEqual([]);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);

  // a title the user typed is kept when generating again, in another style
  await form.getByTestId("create-pull-title").fill("Cursor pagination for lists");
  await form.getByTestId("generate-description-style").click();
  await page.getByTestId("generate-description-style-option-concise").click();
  await form.getByTestId("generate-description").click();
  await expect(body).not.toHaveValue(/## Summary/);
  await expect(form.getByTestId("create-pull-title")).toHaveValue("Cursor pagination for lists");
  await form.getByTestId("create-pull-submit").click();
  await expect(page).toHaveURL(new RegExp(`/${username}/${name}/pulls/\\d+$`));
  const number = Number(page.url().split("/").pop());
  await expect(page.getByTestId("pull-body-markdown")).toContainText("Keep the order stable across pages");

  // the squash box writes the message; the other author becomes a co-author
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "true");
  await box.getByTestId("merge-strategy").click();
  await page.getByTestId("merge-strategy-option-squash").click();
  await box.getByTestId("generate-message").click();
  await expect(box.getByTestId("ai-engine-label")).toHaveText("Written by the local engine");
  const message = box.getByTestId("merge-message");
  await expect(message).toHaveValue(
    new RegExp(
      `^feat\\(api\\): cursor pagination for lists \\(#${number}\\)\\n\\n\\* feat\\(api\\): add cursor pagination to list endpoints\\n`,
    ),
  );
  await expect(message).toHaveValue(/Co-authored-by: Grace Hopper <grace@example\.com>$/);
  expect(await seriousViolations(page)).toEqual([]);
  await box.getByTestId("merge-button").click();
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Merged");
  expect(repo.id).toBeTruthy();
});
