/**
 * The AI code helpers in the pull request pages (spec `ai.explainFileDiff`,
 * `ai.suggestConflictResolution`): "Explain" on a file of the Files tab shows an explanation
 * labelled with its engine ("local" here: no provider configured), and a conflicting pull request
 * is resolved in the browser — "Suggest resolution" fills an editable text with its confidence,
 * "Use this resolution" commits the merge of main into the branch, and the pull request then
 * merges.
 */
import { test, expect } from "@playwright/test";
import { newUser } from "./session";
import { openPullRequest } from "./pull-fixture";

const stamp = Date.now().toString(36);

test("Explain a file; Suggest resolution, Use this resolution, then merge", async ({ browser, baseURL }) => {
  const user = await newUser(browser, baseURL!, "aiconf", stamp);
  const repo = await user.trpc("repos.create", { name: "aiconf" });
  const { clone, pr, url } = await openPullRequest(user, {
    repoId: repo.id,
    name: "aiconf",
    base: { "imports.ts": "import a\nimport b\n", "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n" },
    branch: "feature",
    changes: {
      "imports.ts": "import a\nimport b\nimport feat\n",
      "src/util.ts":
        "export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function mul(a: number, b: number) {\n  console.log(a, b);\n  return a * b;\n}\n",
    },
    title: "Add mul",
  });
  // main gains a conflicting import
  clone.git("checkout", "--quiet", "main");
  clone.commit({ "imports.ts": "import a\nimport b\nimport main\n" }, "Import main");
  clone.push("main");

  const page = user.page;
  await page.goto(`${url}/files`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  await page.getByRole("button", { name: "Explain src/util.ts" }).click();
  const dialog = page.getByTestId("explain-dialog");
  await expect(dialog.getByTestId("explain-summary")).toHaveText("Adds function `mul` in src/util.ts (+5 −0).");
  await expect(dialog.getByTestId("ai-engine")).toHaveText("Engine: local");
  await expect(dialog.getByTestId("explain-concerns")).toContainText("Debug output added (line 6)");
  await page.keyboard.press("Escape");

  await page.goto(`${url}/conflicts`);
  await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
  const file = page.getByTestId("conflict-file");
  await expect(file).toHaveCount(1);
  // committing before resolving names what is missing
  await page.getByTestId("use-resolution").click();
  await expect(page.getByTestId("resolution-problem")).toHaveText("Resolve every file first; not yet: imports.ts");
  await file.getByTestId("suggest-resolution").click();
  await expect(file.getByTestId("resolution-text")).toHaveValue("import a\nimport b\nimport main\nimport feat\n");
  await expect(file.getByTestId("resolution-confidence")).toHaveText("Confidence: medium");
  await expect(file.getByTestId("ai-engine")).toHaveText("Engine: local");
  // "Use theirs" would keep markers out too; markers typed in are refused before sending
  await file.getByTestId("resolution-text").fill("<<<<<<< main\nimport main\n=======\nimport feat\n>>>>>>> feature\n");
  await page.getByTestId("use-resolution").click();
  await expect(page.getByTestId("resolution-problem")).toHaveText("Conflict markers remain in imports.ts: edit them out first");
  await file.getByTestId("suggest-resolution").click();
  await expect(file.getByTestId("resolution-text")).toHaveValue("import a\nimport b\nimport main\nimport feat\n");
  await page.getByTestId("use-resolution").click();

  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}$`));
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "true", { timeout: 30_000 });
  await box.getByTestId("merge-button").click();
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Merged");
  await user.context.close();
});
