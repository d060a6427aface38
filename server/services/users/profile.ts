/** Users' profiles: the shape users.me returns and the lookups by id and by username. */
import type { Db } from "@/server/db";
import { readRows } from "@/server/db/read";
import { getConfig } from "@/server/config";
import { AppError } from "@/server/errors";

/** The profile returned by users.me: {id, username, name, email}. */
export interface Profile {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
}

/** The columns of a Profile. */
export const profileSelect = { id: true, username: true, name: true, email: true } as const;

/** The profile of a user id (users.me: one statement on the read path, server/db/read.ts). Errors: NOT_FOUND. */
export async function getProfile(db: Db, userId: string): Promise<Profile> {
  const p = getConfig().provider === "postgresql" ? "$1" : "?";
  const [user] = await readRows<Profile>(db, `SELECT "id", "username", "name", "email" FROM "User" WHERE "id" = ${p}`, [userId]);
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  return { id: user.id, username: user.username, name: user.name, email: user.email };
}

/** A user by username (case-insensitive), or null. */
export async function findUserByUsername(db: Db, username: string): Promise<Profile | null> {
  return db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: profileSelect });
}
