/**
 * The pending second-factor sign-in of the current request, for React server components
 * (app/signin/two-factor). Reads the request's cookies (next/headers): server components and route
 * handlers only.
 */
import "server-only";
import { cookies } from "next/headers";
import { getDb } from "@/server/db";
import { pendingSession, type PendingSession } from "@/server/services/two-factor/pending-session";
import { sessionCookieIds } from "./pending";

/** The pending session in this request's session cookie (pending-session.ts), or null. */
export async function getPendingSecondFactor(): Promise<PendingSession | null> {
  const jar = await cookies();
  const header = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
  const ids = header ? await sessionCookieIds(new Headers({ cookie: header })) : null;
  return ids ? pendingSession(await getDb(), ids.sessionId, ids.userId) : null;
}
