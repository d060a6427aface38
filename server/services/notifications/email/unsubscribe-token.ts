/**
 * The unsubscribe link of a notification email (docs/notifications-email.md "Unsubscribe"): a
 * token that is its own capability — who (userId) and which thread (repository, subject type and
 * id), signed with HMAC-SHA256 under a key derived from the auth secret (getAuthSecret), so no row
 * is stored and a changed or made-up token fails verification. It never expires (as GitHub's
 * links); the action it allows — muting one thread for one user — is undone from the thread.
 *
 *   token = base64url(JSON [userId, repoId, subjectType, subjectId]) "." base64url(HMAC)
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/server/config";
import type { NotificationSubjectType } from "../event";

/** What an unsubscribe token names. */
export interface UnsubscribeTarget {
  userId: string;
  repoId: string;
  subjectType: NotificationSubjectType;
  subjectId: string;
}

const SUBJECT_TYPES: readonly string[] = ["issue", "pull_request", "commit"];
/** Longest token accepted (characters); a longer one is not parsed at all. */
export const MAX_TOKEN_LENGTH = 1024;

function key(): Buffer {
  // a key of its own (domain separation): a session signature can never pass for a token
  return createHmac("sha256", getAuthSecret()).update("svc unsubscribe token v1").digest();
}

function sign(payload: string): Buffer {
  return createHmac("sha256", key()).update(payload).digest();
}

/** The token of `target` (URL-safe: base64url and one dot). */
export function signUnsubscribeToken(target: UnsubscribeTarget): string {
  const payload = Buffer.from(JSON.stringify([target.userId, target.repoId, target.subjectType, target.subjectId])).toString("base64url");
  return `${payload}.${sign(payload).toString("base64url")}`;
}

/** The target of `token`, or null when it is malformed, too long or its signature does not match. */
export function verifyUnsubscribeToken(token: string): UnsubscribeTarget | null {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const m = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
  if (!m) return null;
  const given = Buffer.from(m[2]!, "base64url");
  const expected = sign(m[1]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(m[1]!, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== 4 || !parsed.every((p) => typeof p === "string" && p.length > 0 && p.length <= 100))
    return null;
  const [userId, repoId, subjectType, subjectId] = parsed as string[];
  if (!SUBJECT_TYPES.includes(subjectType!)) return null;
  return { userId: userId!, repoId: repoId!, subjectType: subjectType as NotificationSubjectType, subjectId: subjectId! };
}
