/**
 * Removing one of the caller's passkeys (docs/security.md "Passkeys").
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { uuid } from "@/server/validation/ids";
import { refreshTwoFactorFlag } from "@/server/services/two-factor/two-factor-flag";

export const deletePasskeyInput = z.object({ id: uuid("id", "a passkey id") });

/**
 * Deletes `userId`'s passkey `id` and recomputes User.twoFactorEnabled in the same transaction.
 * Removing the last second factor is allowed (the session already proves the user; two-factor
 * is then off, which `twoFactorEnabled` in the answer reports). NOT_FOUND unless it is `userId`'s.
 */
export async function deletePasskey(db: Db, userId: string, id: string): Promise<{ deleted: true; twoFactorEnabled: boolean }> {
  return inTransaction(db, async (tx) => {
    const { count } = await tx.passkey.deleteMany({ where: { id, userId } });
    if (count !== 1) throw new AppError("NOT_FOUND", "passkey not found");
    return { deleted: true as const, twoFactorEnabled: await refreshTwoFactorFlag(tx, userId) };
  });
}
