/**
 * services/repos/update-branch.ts `updateBranch` through real git and the database: the ref moves
 * by compare-and-swap together with the caller's writes; a lost race is CONFLICT with nothing
 * kept; a transaction that fails after the ref moved puts the ref back (but never undoes a later
 * push); create and delete; refused refs; the move is recorded as a push (a pull request from
 * the branch follows) unless `record: false`.
 */
import { describe, expect, it, vi } from "vitest";
import type { Tx } from "@/server/db/transaction";
import { AppError } from "@/server/errors";
import { readRef } from "@/server/git/pull-refs";
import { updateBranch } from "@/server/services/repos/update-branch";
import { ZERO_SHA } from "@/lib/sha";
import { actorOf } from "../helpers";
import { git } from "./merge-fixtures";
import { insertPull, suggestionWorld, type SuggestionWorld } from "./pulls-suggestions-fixtures";

/** Set by a test: runs inside the transaction after updateBranch's own work, then fails it (as a failed commit would). */
const commitFailure = vi.hoisted(() => ({ armed: null as null | (() => void) }));

vi.mock("@/server/db/transaction", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/server/db/transaction")>();
  return {
    ...real,
    inTransaction: (db: Parameters<typeof real.inTransaction>[0], fn: Parameters<typeof real.inTransaction>[1]) =>
      real.inTransaction(db, async (tx) => {
        const result = await fn(tx);
        const armed = commitFailure.armed;
        if (armed) {
          commitFailure.armed = null;
          armed();
          throw new Error("the commit failed");
        }
        return result;
      }),
  };
});

/** A new commit on top of `parent` in the bare repository (unreferenced). */
function commitOn(w: SuggestionWorld, parent: string, message: string): string {
  return git(w.gitDir, ["commit-tree", `${parent}^{tree}`, "-p", parent, "-m", message]).trim();
}

async function world() {
  const w = await suggestionWorld();
  const head = w.tip("feature");
  const pr = await insertPull(w.db, w, { branch: "feature", head });
  const actor = actorOf(w.writer);
  const repo = { id: w.repoId, gitDir: w.gitDir };
  return { w, head, pr, actor, repo };
}

async function rejection(p: Promise<unknown>): Promise<AppError> {
  const e = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

describe("updateBranch", () => {
  it("moves the branch with the caller's writes in one transaction, then records it as a push", async () => {
    const { w, head, pr, actor, repo } = await world();
    const next = commitOn(w, head, "next");
    await updateBranch(
      w.db,
      actor,
      repo,
      { ref: "refs/heads/feature", oldSha: head, newSha: next, reason: "test" },
      {
        writes: async (tx) => {
          await tx.pullRequest.update({ where: { id: pr.id }, data: { title: "written with the move" } });
        },
      },
    );
    expect(w.tip("feature")).toBe(next);
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect(row.title).toBe("written with the move");
    // recorded: the pull request follows, with refs/pull/N/head and a "pushed" event by the actor
    expect(row.headSha).toBe(next);
    expect(await readRef(w.gitDir, `refs/pull/${pr.number}/head`)).toBe(next);
    const events = await w.db.pullRequestEvent.findMany({ where: { pullRequestId: pr.id, type: "pushed" } });
    expect(events.map((e) => [e.actorId, JSON.parse(e.data)])).toEqual([[w.writer.id, { commits: 1, before: head, after: next }]]);
    expect((await w.db.repository.findUniqueOrThrow({ where: { id: w.repoId } })).pushedAt).not.toBeNull();
  });

  it("a lost compare-and-swap is CONFLICT with the caller's message; the writes roll back, nothing is recorded", async () => {
    const { w, head, pr, actor, repo } = await world();
    const pushed = commitOn(w, head, "pushed meanwhile");
    git(w.gitDir, ["update-ref", "refs/heads/feature", pushed, head]);
    const mine = commitOn(w, head, "mine");
    const e = await rejection(
      updateBranch(
        w.db,
        actor,
        repo,
        { ref: "refs/heads/feature", oldSha: head, newSha: mine, reason: "test" },
        {
          conflictMessage: "feature moved: try again",
          writes: async (tx) => {
            await tx.pullRequest.update({ where: { id: pr.id }, data: { title: "must not stay" } });
          },
        },
      ),
    );
    expect([e.code, e.message]).toEqual(["CONFLICT", "feature moved: try again"]);
    expect(w.tip("feature")).toBe(pushed);
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect([row.title, row.headSha]).toEqual(["from feature", head]);
    // without a message of the caller's, the branch is named
    const e2 = await rejection(updateBranch(w.db, actor, repo, { ref: "refs/heads/feature", oldSha: head, newSha: mine, reason: "test" }));
    expect([e2.code, e2.message]).toEqual(["CONFLICT", `the branch "feature" moved meanwhile; nothing was changed: reload and try again`]);
  });

  it("writes that throw leave the ref where it was; a transaction failing after the move puts it back", async () => {
    const { w, head, pr, actor, repo } = await world();
    const next = commitOn(w, head, "next");
    const move = { ref: "refs/heads/feature", oldSha: head, newSha: next, reason: "test" };
    const refused = new AppError("PRECONDITION_FAILED", "the claim was lost");
    const e = await rejection(
      updateBranch(w.db, actor, repo, move, {
        writes: async () => {
          throw refused;
        },
      }),
    );
    expect(e).toBe(refused);
    expect(w.tip("feature")).toBe(head);

    // the commit fails after the compare-and-swap: the ref is moved back, the writes are gone
    let during = "";
    commitFailure.armed = () => {
      during = w.tip("feature");
    };
    const writes = async (tx: Tx) => {
      await tx.pullRequest.update({ where: { id: pr.id }, data: { title: "must not stay" } });
    };
    await expect(updateBranch(w.db, actor, repo, move, { writes })).rejects.toThrow("the commit failed");
    expect(during).toBe(next);
    expect(w.tip("feature")).toBe(head);
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect([row.title, row.headSha]).toEqual(["from feature", head]);

    // a push landing between the move and the failure is never undone
    const later = commitOn(w, next, "pushed after the move");
    commitFailure.armed = () => git(w.gitDir, ["update-ref", "refs/heads/feature", later, next]);
    await expect(updateBranch(w.db, actor, repo, move, { writes })).rejects.toThrow("the commit failed");
    expect(w.tip("feature")).toBe(later);
  });

  it("creates (old sha zeros) and deletes (new sha zeros) by compare-and-swap; the deletion is recorded", async () => {
    const { w, head, pr, actor, repo } = await world();
    const create = { ref: "refs/heads/topic", oldSha: ZERO_SHA, newSha: head, reason: "create" };
    await updateBranch(w.db, actor, repo, create);
    expect(w.tip("topic")).toBe(head);
    expect((await rejection(updateBranch(w.db, actor, repo, create))).code).toBe("CONFLICT"); // exists already
    await updateBranch(w.db, actor, repo, { ref: "refs/tags/v1", oldSha: ZERO_SHA, newSha: head, reason: "tag" });
    expect(await readRef(w.gitDir, "refs/tags/v1")).toBe(head);

    const stale = commitOn(w, head, "never the tip");
    const del = (oldSha: string) =>
      updateBranch(w.db, actor, repo, { ref: "refs/heads/feature", oldSha, newSha: ZERO_SHA, reason: "delete" });
    expect((await rejection(del(stale))).code).toBe("CONFLICT");
    expect(w.tip("feature")).toBe(head);
    await del(head);
    expect(await readRef(w.gitDir, "refs/heads/feature")).toBeNull();
    // recorded: the pull request from the deleted branch knows its source is gone
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } });
    expect(row.sourceDeleted).toBe(true);
    expect(await w.db.pullRequestEvent.count({ where: { pullRequestId: pr.id, type: "source_deleted" } })).toBe(1);
  });

  it("record: false moves the ref without the push bookkeeping; refused refs change nothing", async () => {
    const { w, head, pr, actor, repo } = await world();
    const next = commitOn(w, head, "next");
    await updateBranch(w.db, actor, repo, { ref: "refs/heads/feature", oldSha: head, newSha: next, reason: "test" }, { record: false });
    expect(w.tip("feature")).toBe(next);
    expect((await w.db.pullRequest.findUniqueOrThrow({ where: { id: pr.id } })).headSha).toBe(head);
    expect((await w.db.repository.findUniqueOrThrow({ where: { id: w.repoId } })).pushedAt).toBeNull();

    // the rules of checkBranchUpdates (the same as for git push): refs/pull/* and bad names are refused
    for (const ref of [`refs/pull/${pr.number}/head`, "refs/heads/bad..name", "refs/notes/x"]) {
      const e = await rejection(updateBranch(w.db, actor, repo, { ref, oldSha: ZERO_SHA, newSha: next, reason: "test" }));
      expect(e.code).toBe("FORBIDDEN");
      expect(e.message).toMatch(/^refusing "refs\//);
    }
    expect(await readRef(w.gitDir, "refs/notes/x")).toBeNull();
  });
});
