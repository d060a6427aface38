/**
 * Auto-merge (docs/pulls.md "Auto-merge"): the owner protects main (one approving review and the
 * "ci" status), opens a pull request and sees it blocked, enables auto-merge (squash) in the merge
 * box, CI posts a success status over the REST API with a token (Playwright's request API), a
 * second user with write access approves, and the page shows the pull request merged by itself.
 */
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

test("protect main, open a blocked pull request, enable auto-merge, post a status, approve: it merges itself", async ({
  browser,
  baseURL,
  playwright,
}) => {
  const stamp = Date.now().toString(36);
  const owner = await newUser(browser, baseURL!, "auto", stamp);
  const reviewer = await newUser(browser, baseURL!, "appr", stamp);
  const name = `automerge${stamp}`;
  const repoId = ((await owner.trpc("repos.create", { name })) as { id: string }).id;
  await owner.trpc("repos.addCollaborator", { repoId, username: reviewer.username, role: "write" });
  const pull = await openPullRequest(owner, {
    repoId,
    name,
    base: { "README.md": "# Auto\n" },
    branch: "topic",
    changes: { "a.txt": "a\n" },
    title: "Add a",
  });
  await owner.trpc("branchProtection.upsert", {
    repoId,
    pattern: "main",
    requirePullRequest: true,
    requiredApprovals: 1,
    requiredStatusChecks: ["ci"],
    enforceAdmins: true,
  });

  const page = owner.page;
  await page.goto(pull.url);
  const box = page.getByTestId("merge-box");
  await expect(box).toHaveAttribute("data-can-merge", "false");
  await expect(box.locator('[data-testid="merge-requirement"][data-satisfied="false"]')).toHaveCount(2);
  await expect(box.getByTestId("merge-button")).toBeDisabled();

  await box.getByTestId("merge-strategy").click();
  await page.getByTestId("merge-strategy-option-squash").click();
  await box.getByTestId("auto-merge-enable").click();
  await expect(box.getByTestId("auto-merge-status")).toContainText(`Auto-merge enabled by @${owner.username} (squash)`);
  await expect(box.getByTestId("auto-merge-disable")).toBeVisible();
  await expect(box.getByTestId("auto-merge-enable")).toHaveCount(0);

  // CI reports success over the GitHub-compatible REST API with a token
  const token = await owner.token();
  const api = await playwright.request.newContext({ baseURL });
  const posted = await api.post(`/api/v3/repos/${owner.username}/${name}/statuses/${pull.headSha}`, {
    headers: { authorization: `token ${token}` },
    data: { state: "success", context: "ci", description: "Build passed" },
  });
  expect(posted.status(), await posted.text()).toBe(201);
  await api.dispose();
  // the page follows live: the ci requirement is met, the approval still missing, still open
  await expect(box.locator('[data-testid="merge-requirement"][data-satisfied="true"]')).toHaveCount(1);
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Open");
  await expect(box.getByTestId("auto-merge-status")).toBeVisible();

  await reviewer.trpc("pulls.addReview", { prId: pull.pr.id, state: "approved", commitSha: pull.headSha });
  // the job merges it as the owner; the open page shows it without a reload
  await expect(page.getByTestId("pull-state-badge")).toHaveText("Merged", { timeout: 30_000 });
  await expect(page.getByTestId("merge-box")).toHaveCount(0);
  await expect(page.getByText("enabled auto-merge (squash)")).toBeVisible();
});
