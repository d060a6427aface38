/**
 * The plain-text answers of git smart HTTP (smart-http.ts, authorize.ts) and the no-cache
 * headers of every answer: nothing git serves over HTTP may be cached (git-http-backend(1) sends
 * the same three headers).
 */

/** The no-cache headers of every smart HTTP answer. */
export const NO_CACHE = {
  "cache-control": "no-cache, max-age=0, must-revalidate",
  pragma: "no-cache",
  expires: "Fri, 01 Jan 1980 00:00:00 GMT",
};

/** A plain-text response; git prints text/plain error bodies to the user as "remote: …". */
export function text(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(message.endsWith("\n") ? message : message + "\n", {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", ...NO_CACHE, ...headers },
  });
}
