/**
 * Where a webhook may point (docs/security.md "Outbound requests"). Any repository admin can
 * add a hook and svc then POSTs there, so the SSRF rules of AI base URLs apply
 * (server/services/ai/base-url.ts when saving, server/ai/provider-fetch.ts when connecting:
 * every resolved address checked and pinned, no redirects followed).
 * `SVC_WEBHOOK_ALLOW_PRIVATE_URLS=1` allows private and loopback targets (tests, on-premise CI).
 */
import { isPrivateHost } from "@/server/services/ai/base-url";
import { guardedFetch } from "@/server/ai/provider-fetch";

/** True when SVC_WEBHOOK_ALLOW_PRIVATE_URLS=1 in `env`. */
export function allowPrivateWebhookUrls(env: Record<string, string | undefined> = process.env): boolean {
  return env.SVC_WEBHOOK_ALLOW_PRIVATE_URLS === "1";
}

/**
 * Why `value` is not an acceptable webhook URL, or null: http or https only, no user name or
 * password (they would be shown to every admin and stored in clear: use the secret), no fragment,
 * and not a private or local host (base-url.ts `isPrivateHost`) unless private URLs are allowed.
 */
export function webhookUrlProblem(value: string, env: Record<string, string | undefined> = process.env): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "url must be an http or https URL";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "url must be an http or https URL";
  if (url.username || url.password)
    return "url must not contain a user name or password: use the webhook secret to authenticate deliveries";
  if (url.hash) return "url must not contain a fragment (#…)";
  if (!allowPrivateWebhookUrls(env) && isPrivateHost(url.hostname))
    return `svc does not send webhooks to ${url.hostname}: this machine and private networks are refused (the server's administrator can allow them with SVC_WEBHOOK_ALLOW_PRIVATE_URLS=1)`;
  return null;
}

const HINT =
  "A webhook must point at a public server (the server's administrator can allow private ones with SVC_WEBHOOK_ALLOW_PRIVATE_URLS=1)";
const fetches = new Map<boolean, typeof globalThis.fetch>();

/** The fetch deliveries use: addresses checked and pinned per connection, redirects returned (never followed). One pool per setting. */
export function webhookFetch(env: Record<string, string | undefined> = process.env): typeof globalThis.fetch {
  const allowPrivate = allowPrivateWebhookUrls(env);
  let f = fetches.get(allowPrivate);
  if (!f) fetches.set(allowPrivate, (f = guardedFetch({ allowPrivate, hint: HINT, returnRedirects: true })));
  return f;
}
