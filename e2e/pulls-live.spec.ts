/**
 * Live updates (docs/pulls.md "Live updates"): a pull request page open in two browsers sees what
 * the other does without a reload — a title edit, closing and reopening, a push to the source
 * branch — through GET /api/pulls/<id>/events.
 */
import { test, expect } from "./fixtures";
import { openPullRequest } from "./pull-fixture";
import { newUser } from "./session";

const stamp = Date.now().toString(36);

test("two browsers on one pull request see each other's changes without reloading", async ({ browser, baseURL }) => {
  const owner = await newUser(browser, baseURL!, "live", stamp);
  const peer = await newUser(browser, baseURL!, "peer", stamp);
  const repo = await owner.trpc("repos.create", { name: "live" });
  await owner.trpc("repos.addCollaborator", { repoId: repo.id, username: peer.username, role: "write" });
  const { pr, clone } = await openPullRequest(owner, {
    repoId: repo.id,
    name: "live",
    base: { "README.md": "# live\n" },
    branch: "topic",
    changes: { "a.txt": "a\n" },
    title: "Live topic",
    message: "Add a",
  });

  const url = `/${owner.username}/live/pulls/${pr.number}`;
  await Promise.all([owner.page.goto(url), peer.page.goto(url)]);
  for (const p of [owner.page, peer.page]) await expect(p.locator("html[data-shortcuts='on']")).toHaveCount(1);

  // the peer renames it in their browser; the owner's page follows
  await peer.page.getByTestId("pull-edit-title").click();
  await peer.page.getByTestId("pull-title-input").fill("Live topic, renamed");
  await peer.page.getByTestId("pull-title-save").click();
  await expect(owner.page.getByTestId("pull-title-text")).toHaveText("Live topic, renamed", { timeout: 10_000 });

  // the peer closes it; the owner sees the closed state and can reopen at once
  await peer.page.getByTestId("pull-close").click();
  await expect(owner.page.getByTestId("pull-reopen")).toBeVisible({ timeout: 10_000 });
  await owner.page.getByTestId("pull-reopen").click();
  await expect(peer.page.getByTestId("pull-close")).toBeVisible({ timeout: 10_000 });

  // a push to the source branch shows in both timelines
  clone.commit({ "b.txt": "b\n" }, "Add b");
  clone.push("topic");
  for (const p of [owner.page, peer.page]) {
    await expect(p.getByTestId("pull-event").and(p.locator("[data-type='pushed']"))).toHaveCount(1, { timeout: 10_000 });
  }
  await owner.context.close();
  await peer.context.close();
});
