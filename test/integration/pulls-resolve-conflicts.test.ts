/**
 * pulls.resolveConflicts through the real router on a real conflicting pull request (GitHub's web
 * conflict editor): the merge commit of the target into the source (two parents,
 * the user as author), the pull request follows and becomes mergeable, and merges; refusals
 * commit nothing: the head moved (CAS), markers left, a file missing, a reader, a stranger of a
 * private repository (NOT_FOUND), a closed pull request.
 */
import { describe, expect, it } from "vitest";
import { readRef } from "@/server/git/pull-refs";
import { codeOf, messageOf } from "./issues-fixtures";
import { commitFiles, git, refsOf } from "./merge-fixtures";
import { insertPull, suggestionWorld } from "./pulls-suggestions-fixtures";

/** main and feature both change src/app.ts line 3 and add an import to imports.ts. */
async function conflictWorld() {
  const w = await suggestionWorld();
  git(w.work, ["checkout", "-q", "main"]);
  commitFiles(w.work, { "imports.ts": "import a\nimport b\n" }, "imports");
  git(w.work, ["checkout", "-q", "feature"]);
  git(w.work, ["merge", "-q", "main", "-m", "sync"]);
  commitFiles(
    w.work,
    { "imports.ts": "import a\nimport b\nimport feat\n", "src/app.ts": "one\ntwo\nTHREE (feature)\nfour\nfive\nsix\n" },
    "feature side",
  );
  git(w.work, ["checkout", "-q", "main"]);
  commitFiles(
    w.work,
    { "imports.ts": "import a\nimport b\nimport main\n", "src/app.ts": "one\ntwo\n3 (main)\nfour\nfive\nsix\n" },
    "main side",
  );
  git(w.work, ["push", "-q", "-f", w.gitDir, "main", "feature"]);
  const head = w.tip("feature");
  const pr = await insertPull(w.db, w, { branch: "feature", head });
  return { ...w, head, pr };
}

describe("pulls.resolveConflicts", () => {
  it("commits the merge of the target into the source; the pull request becomes mergeable and merges", async () => {
    const w = await conflictWorld();
    const conflicts = await w.as.writer.pulls.getConflicts({ prId: w.pr.id });
    expect(conflicts.files.map((f) => f.path).sort()).toEqual(["imports.ts", "src/app.ts"]);
    expect((await w.as.writer.pulls.checkMergeability({ prId: w.pr.id })).canMerge).toBe(false);

    // the suggestion for imports.ts resolves it; src/app.ts is edited by hand
    const imports = conflicts.files.find((f) => f.path === "imports.ts")!;
    const suggestion = await w.as.writer.ai.suggestConflictResolution({
      repoId: w.repoId,
      path: imports.path,
      ours: imports.ours!,
      theirs: imports.theirs!,
      base: imports.base!,
    });
    expect(suggestion.resolved).toBe("import a\nimport b\nimport main\nimport feat\n");
    const files = [
      { path: "imports.ts", content: suggestion.resolved },
      { path: "src/app.ts", content: "one\ntwo\n3 (main and feature)\nfour\nfive\nsix\n" },
    ];
    const out = await w.as.writer.pulls.resolveConflicts({ prId: w.pr.id, files, expectedHeadSha: w.head });
    expect(out).toMatchObject({ success: true, commitSha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(out.message).toMatch(/^Merge branch 'main' into feature\n\nConflicts resolved in svc:\n {2}imports.ts\n {2}src\/app.ts$/);
    const writer = await w.db.user.findUniqueOrThrow({ where: { id: w.writer.id } });
    expect(git(w.gitDir, ["log", "-1", "--format=%P|%an", out.commitSha]).trim()).toBe(
      `${w.head} ${w.tip("main")}|${writer.name ?? writer.username}`,
    );
    expect(git(w.gitDir, ["show", `${out.commitSha}:src/app.ts`])).toBe("one\ntwo\n3 (main and feature)\nfour\nfive\nsix\n");
    expect(git(w.gitDir, ["show", `${out.commitSha}:feature.txt`])).toBe("f\n"); // the source's other changes stay
    git(w.gitDir, ["fsck", "--strict"]);
    expect(w.tip("feature")).toBe(out.commitSha);
    const row = await w.db.pullRequest.findUniqueOrThrow({ where: { id: w.pr.id } });
    expect(row.headSha).toBe(out.commitSha);
    expect(await readRef(w.gitDir, `refs/pull/${w.pr.number}/head`)).toBe(out.commitSha);

    expect(await w.as.writer.pulls.checkMergeability({ prId: w.pr.id })).toMatchObject({ canMerge: true, conflicts: [] });
    const merged = await w.as.writer.pulls.merge({ prId: w.pr.id });
    expect(merged.state).toBe("merged");
    expect(git(w.gitDir, ["show", "main:imports.ts"])).toBe("import a\nimport b\nimport main\nimport feat\n");
  });

  it("refusals commit nothing: head moved (CAS), markers left, a file missing or extra, a reader, a stranger, a closed pull request", async () => {
    const w = await conflictWorld();
    const good = [
      { path: "imports.ts", content: "import a\nimport b\nimport main\nimport feat\n" },
      { path: "src/app.ts", content: "one\ntwo\n3\nfour\nfive\nsix\n" },
    ];
    const before = refsOf(w.gitDir);
    const call = (as: typeof w.as.writer, files = good, expectedHeadSha = w.head) =>
      as.pulls.resolveConflicts({ prId: w.pr.id, files, expectedHeadSha });

    expect(await messageOf(call(w.as.writer, good, w.second))).toMatch(/moved/);
    expect(await codeOf(call(w.as.writer, good, w.second))).toBe("CONFLICT");
    const marked = [good[0]!, { path: "src/app.ts", content: "one\n<<<<<<< main\n3\n=======\nTHREE\n>>>>>>> feature\n" }];
    expect(await messageOf(call(w.as.writer, marked))).toBe(
      "conflict markers remain in src/app.ts: remove every <<<<<<<, ======= and >>>>>>> block first",
    );
    expect(await messageOf(call(w.as.writer, [good[0]!]))).toBe("every conflicted file must be resolved; missing: src/app.ts");
    expect(await messageOf(call(w.as.writer, [...good, { path: "feature.txt", content: "x\n" }]))).toBe(
      "not conflicted, so not part of a resolution: feature.txt",
    );
    expect(await codeOf(call(w.as.reader))).toBe("FORBIDDEN");
    expect(await codeOf(call(w.as.stranger))).toBe("NOT_FOUND");
    expect(await codeOf(call(w.as.anon))).toBe("NOT_FOUND");
    expect(refsOf(w.gitDir)).toBe(before);

    // the source branch moves under the caller: the CAS check refuses
    git(w.work, ["checkout", "-q", "feature"]);
    commitFiles(w.work, { "late.txt": "late\n" }, "late push");
    git(w.work, ["push", "-q", w.gitDir, "feature"]);
    expect(await codeOf(call(w.as.writer))).toBe("CONFLICT");

    await w.as.writer.pulls.close({ prId: w.pr.id });
    expect(await messageOf(call(w.as.writer))).toMatch(/closed; conflicts are resolved on open pull requests only/);
  });
});
