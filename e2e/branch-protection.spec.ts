/**
 * Branch protection (issue #23; docs/ui.md "Repository settings", docs/pulls.md "Merge
 * requirements"): the owner protects main in Settings → Branches (one approving review), opens a
 * pull request and sees the merge box list the unmet requirement with Merge disabled; a second
 * user with write access approves; Merge is enabled. An admin who merges past the unmet
 * requirements (bypass) sees it on the pull request's timeline and under the rule in Settings →
 * Branches, with a link back to the pull request.
 */
import { test, expect } from "./fixtures";
import { pushInitial } from "./pull-fixture";
import { newUser } from "./session";

test("protect main, see a pull request blocked, approve as a second user, Merge enabled", async ({ browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const owner = await newUser(browser, baseURL!, "prot", stamp);
  const reviewer = await newUser(browser, baseURL!, "revw", stamp);
  const name = `guarded${stamp}`;
  const repoId = ((await owner.trpc("repos.create", { name })) as { id: string }).id;
  await owner.trpc("repos.addCollaborator", { repoId, username: reviewer.username, role: "write" });
  const clone = await pushInitial(owner, name, { "README.md": "# Guarded\n" });
  clone.git("checkout", "--quiet", "-b", "topic", "main");
  const head = clone.commit({ "a.txt": "a\n" }, "Add a");
  clone.push("topic");

  const page = owner.page;
  await page.goto(`/${owner.username}/${name}/settings/branches`);
  await expect(page.getByTestId("no-branch-rules")).toBeVisible();
  await page.getByTestId("new-branch-rule").click();
  await page.getByTestId("branch-rule-pattern").fill("main");
  await page.getByTestId("branch-rule-approvals").fill("1");
  await expect(page.getByTestId("branch-rule-requirePullRequest")).toBeChecked();
  await page.getByTestId("branch-rule-save").click();
  await expect(page.locator('[data-testid="branch-rule-row"][data-pattern="main"]')).toContainText("1 approval");

  const pr = (await owner.trpc("pulls.create", {
    repoId,
    title: "Add a",
    sourceBranch: "topic",
    targetBranch: "main",
    headSha: head,
    baseSha: clone.sha("main"),
  })) as { id: string; number: number };
  await page.goto(`/${owner.username}/${name}/pulls/${pr.number}`);
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "false");
  await expect(page.locator('[data-testid="merge-requirement"][data-satisfied="false"]')).toHaveText(/1 approving review required/);
  await expect(page.getByTestId("merge-button")).toBeDisabled();
  // the owner is an admin and the rule does not include administrators: the bypass is offered
  await expect(page.getByTestId("merge-bypass")).toBeVisible();

  await reviewer.trpc("pulls.addReview", { prId: pr.id, state: "approved", commitSha: head });
  await page.reload();
  await expect(box).toHaveAttribute("data-can-merge", "true");
  await expect(page.locator('[data-testid="merge-requirement"][data-satisfied="true"]')).toBeVisible();
  await expect(page.getByTestId("merge-button")).toBeEnabled();
  await expect(page.getByTestId("merge-bypass")).toHaveCount(0);
});

test("an admin's merge past the requirements is on the timeline and listed under the rule", async ({ browser, baseURL }) => {
  const stamp = Date.now().toString(36);
  const owner = await newUser(browser, baseURL!, "byps", stamp);
  const name = `bypassed${stamp}`;
  const repoId = ((await owner.trpc("repos.create", { name })) as { id: string }).id;
  const clone = await pushInitial(owner, name, { "README.md": "# Bypassed\n" });
  clone.git("checkout", "--quiet", "-b", "hotfix", "main");
  const head = clone.commit({ "fix.txt": "fix\n" }, "Fix");
  clone.push("hotfix");
  // the rule as the settings form saves it (the first test drives the form itself)
  await owner.trpc("branchProtection.upsert", { repoId, pattern: "main", requiredApprovals: 1, requiredStatusChecks: ["ci"] });
  const pr = (await owner.trpc("pulls.create", {
    repoId,
    title: "Hotfix",
    sourceBranch: "hotfix",
    targetBranch: "main",
    headSha: head,
    baseSha: clone.sha("main"),
  })) as { id: string; number: number };

  const page = owner.page;
  await page.goto(`/${owner.username}/${name}/pulls/${pr.number}`);
  await expect(page.getByTestId("merge-button")).toBeDisabled();
  await page.getByTestId("merge-bypass").click();
  await expect(page.getByTestId("merged-box")).toBeVisible();
  await expect(page.locator('[data-testid="pull-event"][data-type="protection_bypassed"]')).toContainText(
    "merged without the required reviews/checks (bypassed branch protection",
  );

  await page.goto(`/${owner.username}/${name}/settings/branches`);
  const rule = page.locator('[data-testid="branch-rule-row"][data-pattern="main"]');
  await rule.getByTestId("branch-rule-bypasses").locator("summary").click();
  const bypass = rule.getByTestId("branch-rule-bypass");
  await expect(bypass).toHaveCount(1);
  await expect(bypass).toHaveAttribute("data-kind", "merge");
  await expect(bypass).toContainText(`${owner.username} merged #${pr.number} past: required reviews, required checks`);
  await bypass.getByRole("link", { name: `#${pr.number}` }).click();
  await expect(page).toHaveURL(new RegExp(`/${owner.username}/${name}/pulls/${pr.number}$`));
});
