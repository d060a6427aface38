/**
 * The Prisma error codes the services react to, in one place
 * (https://www.prisma.io/docs/orm/reference/error-reference): P2002 unique constraint, P2003
 * foreign key, P2025 record to update or delete not found. Services test errors with these
 * predicates instead of comparing `code` strings themselves; `mapPrismaErrors` and
 * `conflictOnDuplicate` turn them into AppErrors for the transports.
 */
import { AppError } from "@/server/errors";

/** Prisma's error code of `e` ("P2002" …), or undefined for anything else (including null). */
function prismaCode(e: unknown): unknown {
  return (e as { code?: unknown } | null)?.code;
}

/** True for Prisma's unique-constraint violation (P2002): a row with the same unique key exists. */
export function isUniqueViolation(e: unknown): boolean {
  return prismaCode(e) === "P2002";
}

/** True for Prisma's foreign-key violation (P2003): the row referred to was deleted meanwhile. */
export function isForeignKeyViolation(e: unknown): boolean {
  return prismaCode(e) === "P2003";
}

/** True for Prisma's "record to update or delete does not exist" (P2025). */
export function isRecordMissing(e: unknown): boolean {
  return prismaCode(e) === "P2025";
}

/**
 * Awaits `work`, mapping the Prisma errors a concurrent change can cause to AppErrors instead of
 * a 500: P2002 (unique constraint, e.g. the same label added twice at once) → CONFLICT "a
 * concurrent change conflicted with this one; retry", P2025 (the row vanished, e.g. deleted by
 * another request meanwhile) → NOT_FOUND "not found (it was changed or deleted meanwhile)".
 * Other errors propagate unchanged.
 */
export async function mapPrismaErrors<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", "a concurrent change conflicted with this one; retry");
    if (isRecordMissing(e)) throw new AppError("NOT_FOUND", "not found (it was changed or deleted meanwhile)");
    throw e;
  }
}

/** Awaits `work`, mapping a unique-constraint violation (P2002) to CONFLICT with `message`; other errors propagate. */
export async function conflictOnDuplicate<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError("CONFLICT", message);
    throw e;
  }
}
