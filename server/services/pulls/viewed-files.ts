/**
 * "Viewed" marks on the Files changed tab (docs/pulls.md "Pages"), per user and file, as on GitHub:
 * a mark records the file's blob at the head when it was set (`blobSha`, null for a deleted file);
 * when the head's blob for that path differs, the mark no longer applies (the viewer shows the file
 * as not viewed again). Marks only ever concern their own user.
 */
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/auth/actor";

export interface ViewedFile {
  path: string;
  /** the file's blob sha at the head when marked (40 hex), or null for a deleted file */
  blobSha: string | null;
}

/** pulls.viewedFiles: the caller's marks on pull request `prId` ([] when anonymous). One query. */
export async function listViewedFiles(db: Db, actor: Actor | null, prId: string): Promise<ViewedFile[]> {
  if (!actor) return [];
  return db.pullRequestFileView.findMany({
    where: { pullRequestId: prId, userId: actor.user.id },
    select: { path: true, blobSha: true },
    orderBy: { path: "asc" },
    take: 10_000,
  });
}

/**
 * pulls.setFileViewed: marks (`viewed` true, upsert) or unmarks (delete) `path` for the caller.
 * Returns {path, viewed}. Errors: UNAUTHORIZED when anonymous (a mark belongs to a user).
 */
export async function setFileViewed(
  db: Db,
  actor: Actor | null,
  prId: string,
  input: { path: string; viewed: boolean; blobSha?: string | null },
): Promise<{ path: string; viewed: boolean }> {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in to mark files as viewed");
  const key = { pullRequestId_userId_path: { pullRequestId: prId, userId: actor.user.id, path: input.path } };
  if (input.viewed) {
    const blobSha = input.blobSha ?? null;
    await db.pullRequestFileView.upsert({
      where: key,
      create: { pullRequestId: prId, userId: actor.user.id, path: input.path, blobSha },
      update: { blobSha, createdAt: new Date() },
    });
  } else {
    await db.pullRequestFileView.deleteMany({ where: { pullRequestId: prId, userId: actor.user.id, path: input.path } });
  }
  return { path: input.path, viewed: input.viewed };
}
