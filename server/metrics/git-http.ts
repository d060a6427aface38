/**
 * git smart HTTP request metrics, recorded around server/http/git/smart-http.ts `handleGitHttp`:
 *
 *   svc_git_http_requests_total{service, status}     requests by git service and HTTP status
 *   svc_git_http_response_seconds{service}           time until the response starts (the status
 *                                                    and headers; git's output then streams)
 *
 * `service` is `upload-pack` (clone, fetch), `receive-pack` (push) or `other` (a malformed URL),
 * from the request's path and `?service=`, so its values are bounded whatever clients send.
 */
import { Counter, Histogram } from "prom-client";
import { metric, metricsEnabled } from "./registry";

/** Bucket bounds (seconds) of svc_git_http_response_seconds: 5 ms to 30 s. */
export const GIT_HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `upload-pack`, `receive-pack` or `other` for a request to `/<owner>/<repo>.git/<rest>`. */
export function gitServiceLabel(rest: string, url: URL): "upload-pack" | "receive-pack" | "other" {
  const service = rest === "info/refs" ? url.searchParams.get("service") : rest;
  return service === "git-upload-pack" ? "upload-pack" : service === "git-receive-pack" ? "receive-pack" : "other";
}

function gitHttpMetrics() {
  return metric("svc_git_http", (registry) => ({
    requests: new Counter({
      name: "svc_git_http_requests_total",
      help: "git smart HTTP requests by service (upload-pack, receive-pack, other) and HTTP status.",
      labelNames: ["service", "status"] as const,
      registers: [registry],
    }),
    response: new Histogram({
      name: "svc_git_http_response_seconds",
      help: "Time until a git smart HTTP response starts (its body, git's output, streams afterwards).",
      labelNames: ["service"] as const,
      buckets: GIT_HTTP_BUCKETS,
      registers: [registry],
    }),
  }));
}

/**
 * Runs `serve` (the git smart HTTP handler of `req` for `<rest>`) and records its request: the
 * status of the Response and the time until it was made. Returns that Response; with metrics off,
 * only calls `serve`. A throw is recorded as status 500 and rethrown.
 */
export async function observeGitHttp(req: Request, rest: string, serve: () => Promise<Response>): Promise<Response> {
  if (!metricsEnabled()) return serve();
  const start = performance.now();
  let status = 500;
  try {
    const res = await serve();
    status = res.status;
    return res;
  } finally {
    const service = gitServiceLabel(rest, new URL(req.url));
    const m = gitHttpMetrics();
    m.requests.inc({ service, status: String(status) });
    m.response.observe({ service }, (performance.now() - start) / 1000);
  }
}
