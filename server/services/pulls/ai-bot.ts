/**
 * The AI reviewer's identity (docs/ai.md "AI review"): a system user
 * `svc-ai` (User.isBot), created on first use, that authors the AI review's PullRequestReview and
 * its inline comments, so they are threads like any other (reply, resolve).
 *
 * It cannot authenticate: no password (users.authenticate refuses a null hash), no GitHub link,
 * no tokens or sessions are ever made for it, and server/auth/actor.ts loads no bot user for a
 * token or session anyway. The name is reserved (lib/names.ts RESERVED_USERNAMES), so nobody
 * can sign up as it; an instance where a person already took it gets `svc-ai-bot` (then -2, …).
 */
import type { Db, Prisma } from "@/server/db";
import { isUniqueViolation } from "@/server/db/prisma-errors";

export const AI_BOT_USERNAME = "svc-ai";
const AI_BOT_NAME = "svc AI review";

type Client = Db | Prisma.TransactionClient;

/** The bot user's id, creating the account on first use (safe under concurrency: a lost race re-reads). */
export async function aiBotUserId(db: Client): Promise<string> {
  const existing = await db.user.findFirst({
    where: { isBot: true, name: AI_BOT_NAME },
    orderBy: { createdAt: "asc" },
    select: { id: true },
  });
  if (existing) return existing.id;
  for (let n = 1; n <= 20; n++) {
    const username = n === 1 ? AI_BOT_USERNAME : n === 2 ? `${AI_BOT_USERNAME}-bot` : `${AI_BOT_USERNAME}-bot-${n - 1}`;
    const taken = await db.user.findUnique({ where: { usernameLower: username }, select: { id: true, isBot: true } });
    if (taken?.isBot) return taken.id;
    if (taken) continue;
    try {
      const created = await db.user.create({
        data: { username, usernameLower: username, name: AI_BOT_NAME, isBot: true, passwordHash: null },
        select: { id: true },
      });
      return created.id;
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      const again = await db.user.findUnique({ where: { usernameLower: username }, select: { id: true, isBot: true } });
      if (again?.isBot) return again.id;
    }
  }
  throw new Error("no free username for the AI review bot");
}
