/**
 * `/unsubscribe/<token>` (docs/notifications-email.md "Unsubscribe"), the List-Unsubscribe link of
 * every notification email:
 *
 * - GET shows what the link unsubscribes from and a button; it changes nothing (mail scanners
 *   and link previews fetch links).
 * - POST unsubscribes — RFC 8058 one-click (`List-Unsubscribe=One-Click` in a form body, as mail
 *   clients send it) or the page's button. No session is needed and no CSRF token: the signed
 *   token is the capability, and it names one user and one thread only.
 *
 * A malformed, tampered or stale token answers a 400 page that says so, never a 500. The pages
 * are small self-contained HTML (no scripts; the proxy's nonce on the one style element).
 */
import type { Db } from "@/server/db";
import { getDb } from "@/server/db";
import { AppError, httpStatusOf } from "@/server/errors";
import { escapeHtml } from "@/server/services/notifications/email/render";
import { previewUnsubscribe, unsubscribeWithToken } from "@/server/services/notifications/email/unsubscribe";
import { logServerError, requestIdOf } from "@/server/request-id";

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2328;background:#fff}" +
  "button{font:inherit;padding:.4rem 1rem;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}" +
  "button:focus-visible{outline:2px solid #0969da;outline-offset:2px}a{color:#0969da}";

function page(req: Request, status: number, title: string, bodyHtml: string): Response {
  const nonce = req.headers.get("x-nonce");
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)} · svc</title>` +
    `<style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ""}>${STYLE}</style></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${bodyHtml}<p><a href="/settings/notifications">Notification settings</a></p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" },
  });
}

async function answer(req: Request, token: string, work: (db: Db, token: string) => Promise<Response>): Promise<Response> {
  try {
    return await work(await getDb(), token);
  } catch (e) {
    if (e instanceof AppError)
      return page(req, httpStatusOf(e.code), "Cannot unsubscribe", `<p data-testid="unsubscribe-error">${escapeHtml(e.message)}</p>`);
    const requestId = requestIdOf(req);
    logServerError(requestId, "/unsubscribe", e);
    return page(req, 500, "Something went wrong", `<p>Try again later (request ${escapeHtml(requestId)}).</p>`);
  }
}

/** GET: the confirmation page (200), or the 400 page for a bad token. */
export function getUnsubscribe(req: Request, token: string): Promise<Response> {
  return answer(req, token, async (db) => {
    const p = await previewUnsubscribe(db, token);
    return page(
      req,
      200,
      "Unsubscribe from this thread?",
      `<p>You will no longer get notifications of <strong>${escapeHtml(p.subject)}</strong> in <strong>${escapeHtml(p.repo)}</strong>, unless you are mentioned or take part again.</p>` +
        `<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit" data-testid="unsubscribe-confirm">Unsubscribe</button></form>`,
    );
  });
}

/** POST (one-click or the page's button): unsubscribes and answers 200, or the 400 page for a bad token. */
export function postUnsubscribe(req: Request, token: string): Promise<Response> {
  return answer(req, token, async (db) => {
    const p = await unsubscribeWithToken(db, token);
    return page(
      req,
      200,
      "Unsubscribed",
      `<p data-testid="unsubscribe-done">You are unsubscribed from <strong>${escapeHtml(p.subject)}</strong> in <strong>${escapeHtml(p.repo)}</strong>.</p>`,
    );
  });
}
