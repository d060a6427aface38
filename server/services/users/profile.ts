/** Users' profiles: the shape users.me returns and the lookups by id and by username. */
import type { Db } from "@/server/db";
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

/** The profile of a user id. Errors: NOT_FOUND. */
export async function getProfile(db: Db, userId: string): Promise<Profile> {
  const user = await db.user.findUnique({ where: { id: userId }, select: profileSelect });
  if (!user) throw new AppError("NOT_FOUND", "user not found");
  return user;
}

/** A user by username (case-insensitive), or null. */
export async function findUserByUsername(db: Db, username: string): Promise<Profile | null> {
  return db.user.findUnique({ where: { usernameLower: username.toLowerCase() }, select: profileSelect });
}
