/**
 * A fork of a private repository stays private (docs/pulls.md "Forks", security.md "Private
 * repositories seen from elsewhere"): a reader's fork is private whatever the input says, making
 * it public is FORBIDDEN while the parent is private, and anonymous callers cannot read it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/[owner]/[repo]/raw/[...segments]/route";
import { callerFor } from "../helpers";
import { codeOf, messageOf, team, type Team } from "./pulls-fixtures";

let t: Team;

beforeAll(async () => {
  t = await team("fpv");
});

afterAll(async () => {
  await t.server.close();
});

function rawGet(owner: string, repo: string, rest: string): Promise<Response> {
  const req = new Request(`http://svc.test/${owner}/${repo}/raw/${rest}`);
  return GET(req, { params: Promise.resolve({ owner, repo, segments: rest.split("/") }) });
}

describe("forks of a private repository", () => {
  it("are private, cannot be made public while the parent is private, and anonymous cannot read them", async () => {
    // an extra isPrivate in the input is not a fork option: the fork follows the parent
    const fork = await t.reader.as.repos.fork({ repoId: t.repo.id, isPrivate: false } as { repoId: string });
    expect(fork.isPrivate).toBe(true);
    const owner = t.reader.user.username;

    const update = t.reader.as.repos.update({ repoId: fork.id, isPrivate: false });
    expect(await codeOf(update)).toBe("FORBIDDEN");
    expect(await messageOf(t.reader.as.repos.update({ repoId: fork.id, isPrivate: false }))).toMatch(
      /fork of a private repository cannot be made public/,
    );
    expect((await t.reader.as.repos.get({ owner, name: fork.name })).isPrivate).toBe(true);
    // other settings of the fork still change
    expect((await t.reader.as.repos.update({ repoId: fork.id, description: "mine" })).description).toBe("mine");

    const anon = await callerFor(null);
    expect(await codeOf(anon.repos.get({ owner, name: fork.name }))).toBe("NOT_FOUND");
    expect(await codeOf(t.stranger.as.repos.get({ owner, name: fork.name }))).toBe("NOT_FOUND");
    expect((await rawGet(owner, fork.name, "main/README.md")).status).toBe(404);
  });

  it("follow the parent once it is public", async () => {
    const fork = await t.reader2.as.repos.fork({ repoId: t.repo.id });
    expect(fork.isPrivate).toBe(true);
    await t.owner.as.repos.update({ repoId: t.repo.id, isPrivate: false });
    try {
      expect((await t.reader2.as.repos.update({ repoId: fork.id, isPrivate: false })).isPrivate).toBe(false);
      const res = await rawGet(t.reader2.user.username, fork.name, "main/README.md");
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("# hello\n");
    } finally {
      await t.owner.as.repos.update({ repoId: t.repo.id, isPrivate: true });
    }
  });
});
