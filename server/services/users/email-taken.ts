/** Whether an email address is in use, as sign-up and GitHub sign-in check it. */
import type { Db } from "@/server/db";

/**
 * Whether an account (other than `exceptUserId`, when given) uses `email`, compared
 * case-insensitively (Alice@X.com and alice@x.com are one address, as GitHub compares them). New
 * emails are stored lower-cased; the comparison also catches rows stored before that with other
 * cases. One query.
 */
export async function emailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  const rows =
    exceptUserId === undefined
      ? await db.$queryRaw<unknown[]>`SELECT 1 FROM "User" WHERE lower("email") = ${email.toLowerCase()} LIMIT 1`
      : await db.$queryRaw<
          unknown[]
        >`SELECT 1 FROM "User" WHERE lower("email") = ${email.toLowerCase()} AND "id" <> ${exceptUserId} LIMIT 1`;
  return rows.length > 0;
}
