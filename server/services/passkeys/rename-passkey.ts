/**
 * Renaming one of the caller's passkeys (docs/security.md "Passkeys").
 */
import { z } from "zod";
import type { Db } from "@/server/db";
import { AppError } from "@/server/errors";
import { inTransaction } from "@/server/db/transaction";
import { uuid } from "@/server/validation/ids";
import { passkeyName } from "./register-passkey";
import { PASSKEY_VIEW_SELECT, passkeyView, type PasskeyView } from "./list-passkeys";

export const renamePasskeyInput = z.object({ id: uuid("id", "a passkey id"), name: passkeyName });

/** Renames `userId`'s passkey `input.id`; returns it. NOT_FOUND unless it is `userId`'s. */
export async function renamePasskey(db: Db, userId: string, input: z.infer<typeof renamePasskeyInput>): Promise<PasskeyView> {
  return inTransaction(db, async (tx) => {
    const { count } = await tx.passkey.updateMany({ where: { id: input.id, userId }, data: { name: input.name } });
    if (count !== 1) throw new AppError("NOT_FOUND", "passkey not found");
    return passkeyView(await tx.passkey.findUniqueOrThrow({ where: { id: input.id }, select: PASSKEY_VIEW_SELECT }));
  });
}
