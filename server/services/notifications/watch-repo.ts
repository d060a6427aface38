/**
 * Watching a repository (docs/notifications.md "Watch levels"): repos.watch and the caller's
 * level shown by the repository page's Watch menu. No row means "participating".
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import type { Actor } from "@/server/auth/actor";
import { AppError } from "@/server/errors";

export const WATCH_LEVELS = ["participating", "all", "ignore"] as const;
export type WatchLevel = (typeof WATCH_LEVELS)[number];
export const watchInput = z.object({ level: z.enum(WATCH_LEVELS) });

/** The caller's watch level of repository `repoId` ("participating" without a row; null when signed out). One query. */
export async function watchLevel(db: Db, actor: Actor | null, repoId: string): Promise<WatchLevel | null> {
  if (!actor) return null;
  const row = await db.repoWatch.findUnique({ where: { userId_repoId: { userId: actor.user.id, repoId } }, select: { level: true } });
  return (row?.level as WatchLevel | undefined) ?? "participating";
}

/**
 * repos.watch {repoId, level}: sets the caller's level ("participating" deletes the row: the
 * default). The caller can read the repository (the procedure's tier). @throws AppError
 * UNAUTHORIZED when signed out.
 */
export async function watchRepo(db: Db, actor: Actor | null, repoId: string, level: WatchLevel): Promise<{ level: WatchLevel }> {
  if (!actor) throw new AppError("UNAUTHORIZED", "sign in to watch a repository");
  const key = { userId_repoId: { userId: actor.user.id, repoId } };
  if (level === "participating") await db.repoWatch.deleteMany({ where: { userId: actor.user.id, repoId } });
  else await db.repoWatch.upsert({ where: key, create: { userId: actor.user.id, repoId, level }, update: { level } });
  return { level };
}
