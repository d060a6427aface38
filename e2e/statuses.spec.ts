/**
 * Commit statuses (issue #23; docs/ui.md "Commit statuses"): a CI script posts a status over the
 * GitHub-compatible REST API with a token; the commit's icon shows in the branch's history with
 * its contexts, the branch switcher marks the branch with it, and the pull request's merge box
 * lists the context with its Details link; the Files tab names each owned file's code owners.
 */
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

test("a status posted over REST shows in history, the branch switcher and the merge box; code owners on the Files tab", async ({
  browser,
  baseURL,
}) => {
  const stamp = Date.now().toString(36);
  const name = `ci${stamp}`;
  const user = await newUser(browser, baseURL!, "ci", stamp);
  const repoId = ((await user.trpc("repos.create", { name })) as { id: string }).id;
  const pull = await openPullRequest(user, {
    repoId,
    name,
    base: { "README.md": "# CI\n", ".github/CODEOWNERS": `*.txt @${user.username}\n` },
    branch: "topic",
    changes: { "a.txt": "a\n" },
    title: "Add a",
  });
  const token = await user.token();
  const post = async (body: Record<string, string>) => {
    const res = await fetch(`${baseURL}/api/v3/repos/${user.username}/${name}/statuses/${pull.headSha}`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(201);
  };
  await post({ state: "success", context: "ci/build", description: "Build passed", target_url: "https://ci.example/build/1" });
  await post({ state: "failure", context: "ci/lint", description: "2 problems" });

  const page = user.page;
  await page.goto(`/${user.username}/${name}/commits/topic`);
  // the branch switcher marks each branch with its head's state (main has no statuses: no mark)
  await page.getByTestId("branch-switcher").click();
  const option = (branch: string) => page.getByTestId("branch-option").filter({ hasText: branch });
  await expect(option("topic").getByTestId("branch-status")).toHaveAttribute("data-state", "failure");
  await expect(option("main")).toBeVisible();
  await expect(option("main").getByTestId("branch-status")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("branch-popover")).toBeHidden();

  const row = page.locator(`[data-testid="commit-row"][data-sha="${pull.headSha}"]`);
  const icon = row.getByTestId("commit-status");
  await expect(icon).toHaveAttribute("data-state", "failure");
  await icon.click();
  const popover = page.getByTestId("commit-status-popover");
  await expect(popover).toContainText("1 successful and 1 failing checks");
  await expect(popover.locator('[data-context="ci/build"]')).toHaveAttribute("data-state", "success");

  await page.goto(pull.url);
  const checks = page.getByTestId("merge-checks");
  await expect(checks.getByTestId("checks-summary")).toHaveText("1 successful and 1 failing checks");
  const build = checks.locator('[data-context="ci/build"]');
  await expect(build).toContainText("Build passed");
  await expect(build.getByTestId("status-details")).toHaveAttribute("href", "https://ci.example/build/1");
  await expect(checks.locator('[data-context="ci/lint"]')).toHaveAttribute("data-state", "failure");

  await page.goto(`${pull.url}/files`);
  const file = page.locator('[data-testid="diff-file"][data-path="a.txt"]');
  await expect(file.getByTestId("file-owners")).toHaveText(`Owned by @${user.username.toLowerCase()}`);
});
