/**
 * Git smart HTTP on an organization's repository (docs/orgs.md "Tokens"): a personal access token
 * acts for its user in the organization, capped by its scopes — a member with base write pushes
 * and clones, a repo:read token of that member cannot push, a member under base read cannot push,
 * an outsider's token gets 404 for the private repository.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { handleGitHttp } from "@/server/http/git/smart-http";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";
import { gitClient, type GitRun } from "../fixtures/clients";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-orgs-git-"));
const home = path.join(tmpRoot, "home");
let dirs = 0;
const tmpDir = (name: string) => path.join(tmpRoot, `${name}-${++dirs}`);
const git = (args: string[], cwd = tmpRoot): Promise<GitRun> => gitClient(["-c", "credential.helper=", ...args], { cwd, home });
async function gitOk(args: string[], cwd = tmpRoot): Promise<string> {
  const r = await git(args, cwd);
  if (r.code !== 0) throw new Error(`git ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r.stdout;
}

describe("git over HTTP on an organization's private repository", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let owner: Profile;
  let writer: Profile; // member of the org with base write
  let outsider: Profile;
  const org = `gitorg${Math.random().toString(36).slice(2, 8)}`;
  const url = (token: string) => `http://git:${token}@127.0.0.1:${new URL(server.url).port}/${org}/code.git`;

  beforeAll(async () => {
    server = await startServer({ git: (req, o, r, rest) => handleGitHttp(req, o, r, rest) });
    owner = await makeUser("gowner");
    writer = await makeUser("gwriter");
    outsider = await makeUser("goutsider");
    const caller = await callerFor(actorOf(owner));
    await caller.orgs.create({ name: org });
    await caller.orgs.update({ name: org, basePermission: "write" });
    await caller.orgs.addMember({ name: org, username: writer.username });
    await caller.repos.create({ owner: org, name: "code", isPrivate: true });
  });

  afterAll(async () => {
    await server.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it("a member's token pushes and clones; a repo:read token cannot push; an outsider gets 404", async () => {
    const work = tmpDir("work");
    await gitOk(["init", "--quiet", "--initial-branch=main", work]);
    writeFileSync(path.join(work, "a.txt"), "hello\n");
    await gitOk(["add", "a.txt"], work);
    await gitOk(["commit", "--quiet", "-m", "first"], work);
    const writerToken = await makeToken(writer, ["repo:read", "repo:write"]);
    await gitOk(["push", "--quiet", url(writerToken), "HEAD:main"], work);
    const head = (await gitOk(["rev-parse", "HEAD"], work)).trim();

    const back = tmpDir("back");
    await gitOk(["clone", "--quiet", url(writerToken), back]);
    expect((await gitOk(["rev-parse", "HEAD"], back)).trim()).toBe(head);

    // the same member with a read-only token: clone yes, push no (scopes cap the organization's grant)
    const readToken = await makeToken(writer, ["repo:read"]);
    await gitOk(["clone", "--quiet", url(readToken), tmpDir("ro")]);
    await gitOk(["commit", "--quiet", "--allow-empty", "-m", "second"], work);
    const refused = await git(["push", url(readToken), "HEAD:main"], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/403|repo:write/);

    // under base read the member can no longer push
    await (await callerFor(actorOf(owner))).orgs.update({ name: org, basePermission: "read" });
    const underRead = await git(["push", url(writerToken), "HEAD:main"], work);
    expect(underRead.code).not.toBe(0);
    expect(underRead.stderr).toMatch(/403|write permission/);

    // an outsider's valid token: the private repository does not exist for them
    const outsiderToken = await makeToken(outsider, ["repo:read", "repo:write"]);
    const clone = await git(["clone", "--quiet", url(outsiderToken), tmpDir("o")]);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/not found|404/);
    const basic = { authorization: `Basic ${Buffer.from(`x:${outsiderToken}`).toString("base64")}` };
    expect((await fetch(`${server.url}/${org}/code.git/info/refs?service=git-upload-pack`, { headers: basic })).status).toBe(404);

    // the organization's owner (admin) pushes the commit the member could not
    const ownerToken = await makeToken(owner, ["repo:read", "repo:write"]);
    await gitOk(["push", "--quiet", url(ownerToken), "HEAD:main"], work);
    const branches = await (
      await callerFor(actorOf(owner))
    ).repos.branches({ repoId: (await (await callerFor(actorOf(owner))).repos.get({ owner: org, name: "code" })).id });
    expect(branches.find((b) => b.name === "main")?.sha).toBe((await gitOk(["rev-parse", "HEAD"], work)).trim());
  });
});
