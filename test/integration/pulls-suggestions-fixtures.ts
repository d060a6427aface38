/**
 * Fixtures for the suggestion tests (docs/pulls.md "Suggestions"): a repository with real git
 * history pushed into svc's bare repository, pull request rows and suggestion comments made
 * directly with Prisma (the comment procedures belong to another part).
 */
import { getDb, type Db } from "@/server/db";
import { repoGitDir } from "@/server/git/paths";
import { issueWorld } from "./issues-fixtures";
import { commitFiles, git, initWork, rev } from "./merge-fixtures";

export const FILES = {
  "src/app.ts": "one\ntwo\nthree\nfour\nfive\nsix\n",
  "crlf.txt": "a\r\nb\r\nc\r\nd\r\n",
  "noeol.txt": "x\ny\nz",
  "docs/notes.md": "# Notes\n\nfirst\nsecond\n",
};

/**
 * A private repository (public with `isPrivate: false`) whose `feature` branch has two commits
 * on main: `first` (adds feature.txt) and `second` (changes line 3 of src/app.ts to "THREE").
 */
export async function suggestionWorld(opts: { isPrivate?: boolean } = {}) {
  const w = await issueWorld({ isPrivate: opts.isPrivate ?? true });
  const db = await getDb();
  const repo = await db.repository.findUniqueOrThrow({ where: { id: w.repoId }, select: { name: true } });
  const gitDir = repoGitDir(w.owner.username, repo.name);
  const work = initWork(FILES);
  git(work, ["checkout", "-q", "-b", "feature"]);
  const first = commitFiles(work, { "feature.txt": "f\n" }, "first", "Bob");
  const second = commitFiles(work, { "src/app.ts": "one\ntwo\nTHREE\nfour\nfive\nsix\n" }, "second", "Bob");
  git(work, ["push", "-q", gitDir, "main", "feature"]);
  const tip = (b: string) => rev(gitDir, `refs/heads/${b}`);
  return { ...w, db, gitDir, repoName: repo.name, work, first, second, tip };
}
export type SuggestionWorld = Awaited<ReturnType<typeof suggestionWorld>>;

/** Inserts an open pull request row source → target (numbered from the shared counter), authored by the writer. */
export async function insertPull(
  db: Db,
  w: { repoId: string; writer: { id: string } },
  source: { repoId?: string; branch: string; head: string },
  extra: { state?: string; target?: string; baseSha?: string; authorId?: string } = {},
) {
  return db.$transaction(async (tx) => {
    const counter = await tx.repository.update({
      where: { id: w.repoId },
      data: { nextIssueNumber: { increment: 1 } },
      select: { nextIssueNumber: true },
    });
    return tx.pullRequest.create({
      data: {
        repoId: w.repoId,
        number: counter.nextIssueNumber - 1,
        title: `from ${source.branch}`,
        state: extra.state ?? "open",
        sourceRepoId: source.repoId ?? w.repoId,
        sourceBranch: source.branch,
        targetBranch: extra.target ?? "main",
        headSha: source.head,
        baseSha: extra.baseSha ?? source.head,
        authorId: extra.authorId ?? w.writer.id,
      },
    });
  });
}

/** A suggestion comment on `path` lines startLine..line (RIGHT side, on `commitSha`, default the pull request's head). */
export async function suggest(
  db: Db,
  pr: { id: string; headSha: string },
  authorId: string,
  c: {
    path: string;
    line: number;
    startLine?: number;
    suggestion: string | null;
    side?: string;
    commitSha?: string;
    isPending?: boolean;
    replyToId?: string;
  },
) {
  return db.pullRequestComment.create({
    data: {
      pullRequestId: pr.id,
      authorId,
      body: "how about this",
      path: c.path,
      line: c.line,
      startLine: c.startLine ?? null,
      endLine: c.startLine ? c.line : null,
      side: c.side ?? "RIGHT",
      commitSha: c.commitSha ?? pr.headSha,
      suggestion: c.suggestion,
      isPending: c.isPending ?? false,
      replyToId: c.replyToId ?? null,
    },
  });
}

/**
 * What the git CLI commits for the same edit: the work tree (after fetching svc's branches) at
 * `parent`, the files written, `git add -A` and `git commit`; returns the new commit's tree id.
 */
export function cliTree(w: { work: string; gitDir: string }, parent: string, files: Record<string, string | Buffer>): string {
  const work = w.work;
  git(work, ["fetch", "-q", w.gitDir, "+refs/heads/*:refs/remotes/svc/*"]);
  git(work, ["checkout", "-q", "--detach", parent]);
  const tree = rev(work, `${commitFiles(work, files, "cli edit")}^{tree}`);
  git(work, ["checkout", "-q", "main"]);
  return tree;
}
