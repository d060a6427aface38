/**
 * GET /api/metrics (README "Metrics", docs/security.md "Hardening II, item 2: metrics endpoint"):
 * this process's metrics in the Prometheus text format, for a Prometheus scraper.
 *
 * Protected as Gitea protects its `/metrics` (`[metrics] ENABLED`, `TOKEN`), except that svc has
 * no open mode: the endpoint exists only when METRICS_TOKEN is configured (unset → 404, as for
 * any unknown path), and answers only `Authorization: Bearer <METRICS_TOKEN>` (anything else →
 * 401 with `WWW-Authenticate: Bearer`). The token is a scrape credential that grants nothing else:
 * user tokens and sessions, a site admin's included, are not accepted. It is compared in constant
 * time (SHA-256 of both, then timingSafeEqual: neither content nor length leaks through timing).
 *
 * Each svc process answers with its own metrics (event loop, requests, git processes); scrape
 * every process. The job queue depth is the database's, the same from each.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { getConfig } from "@/server/config";
import { renderMetrics } from "@/server/metrics/collect";
import { logServerError, requestIdOf } from "@/server/request-id";

function plain(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store", ...headers } });
}

const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest();

/** True when `authorization` is `Bearer <token>` (scheme case-insensitive, RFC 6750), compared in constant time. */
export function bearerMatches(authorization: string | null, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? "");
  return timingSafeEqual(sha256(m ? m[1] : ""), sha256(token)) && m !== null;
}

/** The metrics answer for `req`: 404 when METRICS_TOKEN is unset, 401 without it, else 200 and the metrics. */
export async function getMetrics(req: Request): Promise<Response> {
  const token = getConfig().metricsToken;
  if (!token) return plain(404, "not found\n");
  if (!bearerMatches(req.headers.get("authorization"), token))
    return plain(401, "send Authorization: Bearer <METRICS_TOKEN>\n", { "www-authenticate": 'Bearer realm="svc metrics"' });
  try {
    const { contentType, body } = await renderMetrics();
    return new Response(body, { status: 200, headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (e) {
    const requestId = requestIdOf(req);
    logServerError(requestId, "GET /api/metrics", e);
    return plain(500, `internal error (request ${requestId})\n`);
  }
}
