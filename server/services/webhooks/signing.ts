/**
 * Webhook request headers and signatures, as GitHub sends them (GitHub docs "Validating webhook
 * deliveries"): `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>` and the legacy
 * `X-Hub-Signature: sha1=<hex HMAC-SHA1>`, keyed with the hook's secret. The secret is stored
 * sealed (server/ai/secret-box.ts, associated data `webhook:<id>`).
 */
import { createHmac } from "node:crypto";
import { open, seal, type Sealed } from "@/server/ai/secret-box";
import pkg from "@/package.json";

/** `User-Agent` of every delivery: `svc-Hookshot/<package version>`. */
export const USER_AGENT = `svc-Hookshot/${pkg.version}`;

const aad = (webhookId: string) => `webhook:${webhookId}`;

/** Seals a webhook's secret for storage (AES-256-GCM bound to the hook id). */
export function sealSecret(webhookId: string, secret: string): Sealed {
  return seal(secret, aad(webhookId));
}

/** The hook's secret, or null without one or when it no longer decrypts (a rotated server secret: logged by the caller). */
export function openSecret(webhookId: string, row: { encryptedSecret: string | null; secretKeyId: string | null }): string | null {
  if (!row.encryptedSecret || !row.secretKeyId) return null;
  return open({ ciphertext: row.encryptedSecret, keyId: row.secretKeyId }, aad(webhookId));
}

/** The request headers of one delivery of `body`: GitHub's, plus `X-Svc-Event`; signatures only with a secret. */
export function deliveryHeaders(p: {
  guid: string;
  event: string;
  hookId: string;
  body: string;
  secret: string | null;
}): Record<string, string> {
  const h: Record<string, string> = {
    "Content-Type": "application/json",
    "User-Agent": USER_AGENT,
    "X-GitHub-Event": p.event,
    "X-GitHub-Delivery": p.guid,
    "X-GitHub-Hook-ID": p.hookId,
    "X-Svc-Event": p.event,
  };
  if (p.secret) {
    h["X-Hub-Signature-256"] = `sha256=${createHmac("sha256", p.secret).update(p.body, "utf8").digest("hex")}`;
    h["X-Hub-Signature"] = `sha1=${createHmac("sha1", p.secret).update(p.body, "utf8").digest("hex")}`;
  }
  return h;
}
