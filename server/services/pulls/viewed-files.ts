/**
 * "Viewed" marks on the Files changed tab (docs/pulls.md "Pages"), per user and file. A mark keeps
 * the file's own change when it was set: its patch id (server/git/file-patch-id.ts, the file's
 * changed lines against the merge base with whitespace and line numbers ignored) and its blob at
 * the head (`blobSha`, null for a deleted file). The mark applies while the file's patch id is the
 * same, so a rebase onto a moved base, or a push that changes other files, keeps it; a push that
 * changes the file's own change makes it "changed since viewed" (GitHub's wording). A mark without
 * a patch id (set before patch ids, or on a binary or cut file) applies while the head's blob is
 * the same, GitHub's rule. Each mark also keeps the pull request's head when it was set (`headSha`), so
 * it says which revision it was made on (`revision`, revision-of.ts's rule, as reviews and
 * comments). Marks only ever concern their own user.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";
import type { AuthorizedRepo } from "@/server/services/repos/access";
import type { DiffFile } from "@/server/git/diff-types";
import { filePatchId } from "@/server/git/file-patch-id";
import { MAX_FILTER_PATHS } from "@/server/services/diff/filter";
import { pullDiff } from "@/server/services/diff/get-pull-diff";
import { headRevisions } from "./revision-of";

/** Most marks one reader has on one pull request that are read (and checked against the diff). */
const MAX_MARKS = 5_000;

export interface ViewedFile {
  path: string;
  /** the file's blob sha at the head when marked (40 hex), or null for a deleted file */
  blobSha: string | null;
  /** the file's patch id when marked (40 hex), or null (an older mark, a binary or cut file) */
  patchId: string | null;
  /** "viewed" while the mark applies; "changed" when the file changed since (shown as not viewed) */
  state: "viewed" | "changed";
  /** the revision (pulls.revisions `number`) whose head the mark was set on; null for older marks or an unrecorded head */
  revision: number | null;
}

/** The key a mark is stored under: the file's path at the head (its old path when deleted). */
function pathOf(f: DiffFile): string {
  return f.status === "deleted" ? f.oldPath : f.newPath;
}

/** A file's version as a mark keeps it: its blob at the head (null when deleted) and its patch id. */
export interface FileVersion {
  blobSha: string | null;
  patchId: string | null;
}

/**
 * The current version of each of `paths` in pull request `prId`'s diff (merge base → head), by
 * path; a path the diff no longer changes is absent. Mark time and read time both use this, so
 * both hash the same diff, restricted to the paths asked (a rename whose old path is not named
 * reads as an added file, on both sides alike). Whether git pairs a file as a rename or a copy
 * depends on which other paths are named, so a paired file has no patch id: its hunks are against
 * another path, and its mark keeps the blob rule. One git run per MAX_FILTER_PATHS paths.
 * Also returns the head the diff was read at (null when `paths` is empty).
 * Errors: pulls.getDiff's (CONFLICT when a commit of the pull request is missing).
 */
export async function currentVersions(
  db: Db,
  repo: AuthorizedRepo,
  prId: string,
  paths: string[],
): Promise<{ headSha: string | null; versions: Map<string, FileVersion> }> {
  const out = new Map<string, FileVersion>();
  let headSha: string | null = null;
  for (let i = 0; i < paths.length; i += MAX_FILTER_PATHS) {
    const diff = await pullDiff(db, repo, prId, { paths: paths.slice(i, i + MAX_FILTER_PATHS) });
    headSha = diff.headSha;
    for (const f of diff.files) {
      const paired = f.status === "renamed" || f.copiedFrom !== undefined;
      out.set(pathOf(f), { blobSha: f.status === "deleted" ? null : f.newSha, patchId: paired ? null : filePatchId(f) });
    }
  }
  return { headSha, versions: out };
}

/** Whether a mark still applies to the file's `now` version (absent: the diff no longer changes it). */
function applies(mark: FileVersion, now: FileVersion | undefined): boolean {
  if (!now) return false;
  if (mark.patchId && now.patchId) return mark.patchId === now.patchId;
  return mark.blobSha === now.blobSha;
}

/**
 * pulls.viewedFiles: the caller's marks on pull request `prId` ([] when anonymous), by path, each
 * with whether it still applies (`state`) and the revision it was set on. Two queries (the marks,
 * their heads' revisions), and one diff of the marked paths when there are marks. Errors:
 * pulls.getDiff's.
 */
export async function listViewedFiles(db: Db, repo: AuthorizedRepo, actor: Actor | null, prId: string): Promise<ViewedFile[]> {
  if (!actor) return [];
  const marks = await db.pullRequestFileView.findMany({
    where: { pullRequestId: prId, userId: actor.user.id },
    select: { path: true, blobSha: true, patchId: true, headSha: true },
    orderBy: { path: "asc" },
    take: MAX_MARKS,
  });
  if (marks.length === 0) return [];
  const { versions } = await currentVersions(
    db,
    repo,
    prId,
    marks.map((m) => m.path),
  );
  const revisions = await headRevisions(db, prId, [...new Set(marks.flatMap((m) => (m.headSha ? [m.headSha] : [])))]);
  return marks.map(({ headSha, ...m }) => ({
    ...m,
    state: applies(m, versions.get(m.path)) ? "viewed" : "changed",
    revision: headSha ? (revisions.get(headSha) ?? null) : null,
  }));
}

/**
 * pulls.setFileViewed: marks (`viewed` true, upsert) or unmarks (delete) `path` for the caller.
 * `blobSha` is the blob the caller saw (null for a deleted file); when it is the head's blob, or
 * omitted, the mark keeps the file's current patch id; when it is another blob (the caller saw
 * an older push) the mark keeps only that blob, so it does not apply to the newer version.
 * Returns {path, viewed}. Errors: UNAUTHORIZED when anonymous (a mark belongs to a user);
 * pulls.getDiff's when marking.
 */
export async function setFileViewed(
  db: Db,
  repo: AuthorizedRepo,
  actor: Actor | null,
  prId: string,
  input: { path: string; viewed: boolean; blobSha?: string | null },
): Promise<{ path: string; viewed: boolean }> {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in to mark files as viewed");
  const key = { pullRequestId_userId_path: { pullRequestId: prId, userId: actor.user.id, path: input.path } };
  if (input.viewed) {
    const { headSha, versions } = await currentVersions(db, repo, prId, [input.path]);
    const now = versions.get(input.path);
    const seen = input.blobSha === undefined ? (now?.blobSha ?? null) : input.blobSha;
    const patchId = now && now.blobSha === seen ? now.patchId : null;
    const mark = { blobSha: seen, patchId, headSha };
    await db.pullRequestFileView.upsert({
      where: key,
      create: { pullRequestId: prId, userId: actor.user.id, path: input.path, ...mark },
      update: { ...mark, createdAt: new Date() },
    });
  } else {
    await db.pullRequestFileView.deleteMany({ where: { pullRequestId: prId, userId: actor.user.id, path: input.path } });
  }
  return { path: input.path, viewed: input.viewed };
}
