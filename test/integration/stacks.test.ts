/**
 * Stacks (docs/pulls.md "Stacks"): create, get, list, reorder, delete with their validation, and
 * pulls.get's `stack` with isCurrent — real branches pushed over git smart HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  codeOf,
  member,
  messageOf,
  remoteOf,
  seededWorkTree,
  startGitServer,
  type Member,
  type Server,
  type WorkTree,
} from "./pulls-fixtures";

let server: Server;
let owner: Member, reader: Member;
let repo: { id: string; name: string };
let wt: WorkTree;
const tips: Record<string, string> = {};

beforeAll(async () => {
  server = await startGitServer();
  [owner, reader] = await Promise.all([member("stk"), member("str")]);
  repo = await owner.as.repos.create({ name: `stack${Math.random().toString(36).slice(2, 8)}` });
  await owner.as.repos.addCollaborator({ repoId: repo.id, username: reader.user.username, role: "read" });
  wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
  // main ← s1 ← s2 ← s3 (each branch on top of the one before), and a loose branch
  let from = "main";
  for (const b of ["s1", "s2", "s3", "loose"]) {
    await wt.run("checkout", "--quiet", "-B", b, b === "loose" ? "main" : from);
    tips[b] = await wt.commit(`${b}.txt`, `${b}\n`);
    from = b;
  }
  await wt.push("s1", "s2", "s3", "loose");
});

afterAll(async () => {
  await server.close();
});

describe("stacks", () => {
  it("creates, lists and gets a stack; pulls.get carries it with isCurrent and each branch's pull request", async () => {
    const pr1 = await owner.as.pulls.create({
      repoId: repo.id,
      title: "one",
      sourceBranch: "s1",
      targetBranch: "main",
      headSha: tips.s1,
      baseSha: await wt.sha("main"),
    });
    const pr2 = await owner.as.pulls.create({
      repoId: repo.id,
      title: "two",
      sourceBranch: "s2",
      targetBranch: "s1",
      headSha: tips.s2,
      baseSha: tips.s1,
    });
    const stack = await owner.as.stacks.create({ repoId: repo.id, name: "Auth work", baseBranch: "main", branches: ["s1", "s2", "s3"] });
    expect(stack).toEqual({
      id: expect.any(String),
      name: "Auth work",
      baseBranch: "main",
      branches: [
        { branchName: "s1", position: 0, pr: { id: pr1.id, number: pr1.number, title: "one", state: "open" }, isCurrent: false },
        { branchName: "s2", position: 1, pr: { id: pr2.id, number: pr2.number, title: "two", state: "open" }, isCurrent: false },
        { branchName: "s3", position: 2, pr: null, isCurrent: false },
      ],
    });
    expect(await reader.as.stacks.get({ stackId: stack.id })).toEqual(stack);
    expect((await reader.as.stacks.list({ repoId: repo.id })).map((s) => s.id)).toEqual([stack.id]);
    const got = await reader.as.pulls.get({ repoId: repo.id, number: pr2.number });
    expect(got.stack).toMatchObject({ id: stack.id, name: "Auth work", baseBranch: "main" });
    expect(got.stack!.branches.map((b) => [b.branchName, b.isCurrent])).toEqual([
      ["s1", false],
      ["s2", true],
      ["s3", false],
    ]);
  });

  it("validates: branches exist, no duplicates, base not in the stack, a branch in one stack, unique names, write permission", async () => {
    const make = (name: string, branches: string[], baseBranch = "main") =>
      owner.as.stacks.create({ repoId: repo.id, name, baseBranch, branches });
    expect(await messageOf(make("x", ["nope"]))).toMatch(/"nope" does not exist/);
    expect(await messageOf(make("x", ["loose"], "gone"))).toMatch(/"gone" does not exist/);
    expect(await messageOf(make("x", ["loose", "loose"]))).toMatch(/appears twice/);
    expect(await messageOf(make("x", ["main"]))).toMatch(/base branch/);
    expect(await codeOf(make("x", []))).toBe("BAD_REQUEST");
    expect(await messageOf(make("x", ["loose", "s2"]))).toMatch(/"s2" already belongs to stack "Auth work"/);
    expect(await messageOf(make("auth WORK", ["loose"]))).toMatch(/already exists/);
    expect(await codeOf(reader.as.stacks.create({ repoId: repo.id, name: "mine", baseBranch: "main", branches: ["loose"] }))).toBe(
      "FORBIDDEN",
    );
  });

  it("reorders (and may add a free branch), refuses a taken branch, deletes", async () => {
    const [stack] = await owner.as.stacks.list({ repoId: repo.id });
    const other = await owner.as.stacks.create({ repoId: repo.id, name: "Other", baseBranch: "main", branches: ["loose"] });
    const listed = await owner.as.stacks.list({ repoId: repo.id });
    expect(listed.map((s) => s.name)).toEqual(["Auth work", "Other"]);
    expect(listed[0].branches[0].pr).toMatchObject({ title: "one", state: "open" });
    expect(listed[1].branches).toEqual([{ branchName: "loose", position: 0, pr: null, isCurrent: false }]);
    expect(await messageOf(owner.as.stacks.reorder({ stackId: stack.id, branches: ["s1", "loose"] }))).toMatch(
      /already belongs to stack "Other"/,
    );
    expect(await codeOf(reader.as.stacks.reorder({ stackId: stack.id, branches: ["s2", "s1"] }))).toBe("FORBIDDEN");
    await owner.as.stacks.delete({ stackId: other.id });
    expect(await codeOf(owner.as.stacks.get({ stackId: other.id }))).toBe("NOT_FOUND");
    const re = await owner.as.stacks.reorder({ stackId: stack.id, branches: ["s2", "s1", "loose"] });
    expect(re.branches.map((b) => [b.branchName, b.position])).toEqual([
      ["s2", 0],
      ["s1", 1],
      ["loose", 2],
    ]);
    const { id } = await owner.as.stacks.delete({ stackId: stack.id });
    expect(id).toBe(stack.id);
    expect(await owner.as.stacks.list({ repoId: repo.id })).toEqual([]);
    const [pr] = await owner.as.pulls.list({ repoId: repo.id, limit: 1 });
    expect("stack" in (await owner.as.pulls.get({ repoId: repo.id, number: pr.number }))).toBe(false);
  });
});
