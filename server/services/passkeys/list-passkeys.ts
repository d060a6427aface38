/**
 * The caller's passkeys for Settings → Security (docs/security.md "Passkeys").
 */
import type { Db } from "@/server/db";

/** A passkey as listed: dates ISO; `lastUsedAt` null until it signed in once. */
export interface PasskeyView {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  /** "singleDevice" | "multiDevice" (synced). */
  deviceType: string;
  backedUp: boolean;
}

/** The columns a PasskeyView is built from. */
export const PASSKEY_VIEW_SELECT = { id: true, name: true, createdAt: true, lastUsedAt: true, deviceType: true, backedUp: true } as const;

/** A Passkey row (PASSKEY_VIEW_SELECT) as a PasskeyView. */
export function passkeyView(row: {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  deviceType: string;
  backedUp: boolean;
}): PasskeyView {
  return { ...row, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

/** `userId`'s passkeys, oldest first (the order they were added). */
export async function listPasskeys(db: Db, userId: string): Promise<PasskeyView[]> {
  const rows = await db.passkey.findMany({
    where: { userId },
    select: PASSKEY_VIEW_SELECT,
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(passkeyView);
}
