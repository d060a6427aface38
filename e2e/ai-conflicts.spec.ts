/**
 * The AI code helpers in the pull request pages (spec `ai.explainFileDiff`,
 * `ai.suggestConflictResolution`): "Explain" on a file of the Files tab shows an explanation
 * labelled with its engine ("local" here: no provider configured), and a conflicting pull request
 * is resolved in the browser — "Suggest resolution" offers its part to the conflict region with
 * its confidence, "Use suggestion" takes it, "Commit merge" commits the merge of main into the
 * branch, and the pull request then merges. With a model (the fake OpenAI-compatible server
 * behind the repository's key) whose answer is unusable, the local suggestion is shown and said.
 */
import { test, expect } from "./fixtures";
import { newUser } from "./session";
import { startFakeOpenAI } from "../test/fixtures/fake-openai";
import { openPullRequest } from "./pull-fixture";

const stamp = Date.now().toString(36);

test("Explain a file; Suggest resolution, Use suggestion, Commit merge, then merge", async ({ browser, baseURL }) => {
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
  const region = file.getByTestId("conflict-region");
  await expect(page.getByTestId("commit-merge")).toBeDisabled();
  await file.getByTestId("suggest-resolution").click();
  await expect(region.getByTestId("region-suggestion").locator("pre")).toHaveText("import main import feat");
  await expect(file.getByTestId("resolution-confidence")).toHaveText("Confidence: medium");
  await expect(file.getByTestId("ai-engine")).toHaveText("Engine: local");
  await expect(file.getByTestId("suggestion-fallback")).toHaveCount(0);
  await region.getByTestId("use-region-suggestion").click();
  await expect(region.getByTestId("region-status")).toHaveText("Resolved: the suggestion");
  await page.getByTestId("commit-merge").click();

  await expect(page).toHaveURL(new RegExp(`/pulls/${pr.number}$`));
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "true", { timeout: 30_000 });
  await box.getByTestId("merge-button").click();
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Merged");
  await user.context.close();
});

test("a model's unusable answer: the local suggestion, and the page says so", async ({ browser, baseURL }) => {
  const fake = await startFakeOpenAI();
  try {
    const user = await newUser(browser, baseURL!, "aifb", stamp);
    const repo = await user.trpc("repos.create", { name: "aifallback" });
    const { clone, url } = await openPullRequest(user, {
      repoId: repo.id,
      name: "aifallback",
      base: { "colour.txt": "colour = red\n" },
      branch: "blue",
      changes: { "colour.txt": "colour = blue\n" },
      title: "Blue",
    });
    clone.git("checkout", "--quiet", "main");
    clone.commit({ "colour.txt": "colour = green\n" }, "Green");
    clone.push("main");
    // the repository's key points at the fake, which answers with conflict markers still in the file
    await user.trpc("repoAiKeys.set", {
      repoId: repo.id,
      provider: "openai",
      apiKey: "sk-e2e-conflicts-0000",
      model: "fake-merge",
      baseUrl: fake.url,
    });
    fake.reply({
      content: JSON.stringify({
        resolved: "<<<<<<< main\ncolour = green\n=======\ncolour = blue\n>>>>>>> blue\n",
        explanation: "Done.",
        confidence: "high",
      }),
    });
    const page = user.page;
    await page.goto(`${url}/conflicts`);
    await expect(page.locator("html[data-shortcuts='on']")).toHaveCount(1);
    const file = page.getByTestId("conflict-file");
    await file.getByTestId("suggest-resolution").click();
    await expect(file.getByTestId("suggestion-fallback")).toHaveText("The model's answer was unusable; showing the local suggestion.");
    await expect(file.getByTestId("ai-engine")).toHaveText("Engine: local");
    await expect(file.getByTestId("resolution-warnings")).toContainText(
      "openai:fake-merge answered with conflict markers still in the file",
    );
    // the local engine cannot resolve this region either: nothing to take, the conflict stays
    await expect(file.getByTestId("use-region-suggestion")).toHaveCount(0);
    await expect(file.getByTestId("file-conflicts-left")).toHaveText("1 conflict left");
    expect(fake.requests.filter((r) => r.path.endsWith("/chat/completions"))).toHaveLength(1);
    await user.context.close();
  } finally {
    await fake.close();
  }
});
