/**
 * GitHub's `repository` webhook event (docs/api.md "Webhooks"): repos.update sends `publicized` /
 * `privatized` and `edited` with `changes {description, default_branch: {from}}`, repos.transfer
 * sends `transferred` with `changes.owner.from` (a user or an organization) and the repository at
 * its new path; a hook not subscribed gets none, a refused update sends nothing. Checked on the
 * delivery rows the change writes in its transaction (webhooks.test.ts sends deliveries for real).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/server/db";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";

let alice: Profile;
let as: Awaited<ReturnType<typeof callerFor>>;

/** The `repository` deliveries of hook `webhookId`, oldest first, as {action, body}. */
async function repositoryDeliveries(webhookId: string) {
  const rows = await (
    await getDb()
  ).webhookDelivery.findMany({
    where: { webhookId, event: "repository" },
    orderBy: { createdAt: "asc" },
    select: { action: true, requestBody: true },
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return rows.map((r) => ({ action: r.action, body: JSON.parse(r.requestBody) as Record<string, any> }));
}

async function repoWithHook(name: string, events: string[] = ["repository"]) {
  const repo = await as.repos.create({ name, isPrivate: true });
  const hook = await as.webhooks.create({ repoId: repo.id, url: "https://hooks.example.com/svc", events: events as ["repository"] });
  return { repo, hook };
}

beforeAll(async () => {
  alice = await makeUser("whrepo");
  as = await callerFor(actorOf(alice));
});

describe("repository webhook events", () => {
  it("publicized, privatized and edited (description, default branch) with GitHub's changes; nothing when nothing changed", async () => {
    const { repo, hook } = await repoWithHook("settings");
    await as.repos.update({ repoId: repo.id, isPrivate: false });
    await as.repos.update({ repoId: repo.id, description: "the app" });
    await as.repos.update({ repoId: repo.id, description: "the app" }); // unchanged: no event
    await as.repos.update({ repoId: repo.id, isPrivate: true, defaultBranch: "trunk", description: null });
    const got = await repositoryDeliveries(hook.id);
    expect(got.map((d) => d.action)).toEqual(["publicized", "edited", "privatized", "edited"]);
    expect(got[0]!.body).toMatchObject({ action: "publicized", repository: { full_name: `${alice.username}/settings`, private: false } });
    expect(got[0]!.body.sender).toMatchObject({ login: alice.username });
    expect(got[0]!.body).not.toHaveProperty("changes");
    expect(got[1]!.body.changes).toEqual({ description: { from: null } });
    expect(got[3]!.body.changes).toEqual({ description: { from: "the app" }, default_branch: { from: "main" } });
    expect(got[3]!.body.repository).toMatchObject({ private: true, default_branch: "trunk" });
  });

  it("a refused update sends nothing; a hook not subscribed to repository gets none", async () => {
    const { repo, hook } = await repoWithHook("quiet", ["push"]);
    await as.repos.update({ repoId: repo.id, isPrivate: false });
    expect(await repositoryDeliveries(hook.id)).toEqual([]);
    const other = await repoWithHook("refused");
    await expect(as.repos.update({ repoId: other.repo.id, defaultBranch: "bad..name" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await repositoryDeliveries(other.hook.id)).toEqual([]);
  });

  it("transferred, with the former owner (user, then organization) and the new path", async () => {
    const { repo, hook } = await repoWithHook("moving");
    await as.orgs.create({ name: `${alice.username}-org` });
    await as.repos.transfer({ repoId: repo.id, newOwner: `${alice.username}-org` });
    await as.repos.transfer({ repoId: repo.id, newOwner: alice.username });
    const [toOrg, back] = await repositoryDeliveries(hook.id);
    expect(toOrg!.body).toMatchObject({
      action: "transferred",
      changes: { owner: { from: { user: { login: alice.username, type: "User" } } } },
      repository: { full_name: `${alice.username}-org/moving` },
      sender: { login: alice.username },
    });
    expect(back!.body).toMatchObject({
      changes: { owner: { from: { organization: { login: `${alice.username}-org`, type: "Organization" } } } },
      repository: { full_name: `${alice.username}/moving` },
    });
  });
});
