/**
 * The message to show for a failed API response: the server's own words, never a bare "Request
 * failed (500)" (docs/ui.md "Tokens page"). Pure, unit-tested in
 * test/unit/tokens-api-error.test.ts.
 *
 * Understands, in order: svc's REST shape `{error: {code, message}}` (docs/api.md), tRPC's
 * `{error: {message, data}}` (also as a one-element batch array), `{error: "text"}`,
 * `{message: "text"}`, then a short plain-text body (HTML error pages from a proxy are ignored).
 * Falls back to "your session has ended; sign in again" for 401 and "request failed (<status>)".
 */
export function apiErrorMessage(status: number, bodyText: string): string {
  const fromBody = messageOf(bodyText);
  if (fromBody) return fromBody;
  if (status === 401) return "your session has ended; sign in again";
  return `request failed (${status})`;
}

const MAX_TEXT = 300;

function messageOf(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(trimmed);
  } catch {
    // not JSON: a plain-text message is shown as is; an HTML page is not
    if (/^<|<html|<!doctype/i.test(trimmed) || trimmed.length > MAX_TEXT) return undefined;
    return trimmed;
  }
  const first = Array.isArray(body) ? body[0] : body;
  if (!first || typeof first !== "object") return undefined;
  const { error, message } = first as { error?: unknown; message?: unknown };
  if (typeof error === "string" && error.trim()) return error;
  if (error && typeof error === "object") {
    const m =
      (error as { message?: unknown; json?: { message?: unknown } }).message ?? (error as { json?: { message?: unknown } }).json?.message;
    if (typeof m === "string" && m.trim()) return m;
  }
  if (typeof message === "string" && message.trim()) return message;
  return undefined;
}

/** The token form's expiry choices; the page defaults to 30 days as GitHub does (the API's default stays "never"). */
export const EXPIRY_OPTIONS = [
  { value: "", label: "No expiration" },
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
] as const;
export const DEFAULT_EXPIRY = "30";
