// svc's HTTP server: the production Next app on node:http through Next's documented custom-server
// API (`next({ dev: false, dir, hostname, port })`, `prepare()`, `getRequestHandler()`), with one
// change to every request: X-Forwarded-For is set here from the connection (scripts/client-address.mjs),
// so the app's per-IP limits cannot be fooled by a forged header; and one refusal: a path with a
// malformed percent-escape is answered 400 here (scripts/request-guard.mjs), where Next would 500. Request and response bodies are
// streamed by Next as with `next start` (git pushes of hundreds of MB go through: nothing buffers).
//
//   node scripts/server.mjs        serve an existing build (`node scripts/start.mjs` builds first)
//
// Environment: PORT (3000), HOSTNAME (all interfaces), TRUST_PROXY=1 (one reverse proxy in front),
// SVC_SHUTDOWN_GRACE_MS (30000).
// Before it listens, `app.prepare()` runs instrumentation.ts (server/process-start.ts): the SQLite
// server lock, the database's migrations, the background job worker. A refusal there ends the start.
// SIGTERM/SIGINT: a graceful stop (docs/deploy.md "Stopping"): the port closes at once (new
// connections are refused, so a proxy sends them to another process), event streams end (their
// EventSource reconnects), running requests get up to SVC_SHUTDOWN_GRACE_MS to finish and running
// jobs up to 30 s, then the process exits 0. A second signal exits at once (130/143).
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { forwardedFor, trustProxyFrom } from "./client-address.mjs";
import { requestTargetProblem } from "./request-guard.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Default of SVC_SHUTDOWN_GRACE_MS (ms): how long a stopping server lets running requests finish. */
export const SHUTDOWN_GRACE_MS = 30_000;
/**
 * What the stop may take beyond SVC_SHUTDOWN_GRACE_MS (ms): the job worker waits up to 30 s for
 * running jobs (server/jobs), alongside the requests, then closes. A process still stopping after
 * grace + this exits 1 (closeOnSignals); a supervisor's stop timeout must be longer than both.
 */
export const JOBS_STOP_MS = 35_000;

/**
 * SVC_SHUTDOWN_GRACE_MS: an integer from 0 to 3 600 000 (ms), else SHUTDOWN_GRACE_MS.
 * @param {string | undefined} value
 * @returns {number}
 */
export function shutdownGraceFrom(value) {
  const raw = value?.trim();
  const n = raw && /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  return n >= 0 && n <= 3_600_000 ? n : SHUTDOWN_GRACE_MS;
}

/**
 * Starts the production server and resolves once it listens.
 * @param {{ dir?: string, port?: number, hostname?: string, trustProxy?: boolean, graceMs?: number }} [options]
 *   dir: the built svc folder (default: this package); port: TCP port (PORT, default 3000);
 *   hostname: address to listen on (HOSTNAME, default all interfaces); trustProxy: TRUST_PROXY;
 *   graceMs: SVC_SHUTDOWN_GRACE_MS
 * @returns {Promise<{ server: http.Server, close: () => Promise<void>, graceMs: number }>}
 * @throws when there is no build in `<dir>/.next` or the port cannot be bound
 */
export async function serve(options = {}) {
  process.env.NODE_ENV = "production";
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const dir = options.dir ?? root;
  const port = options.port ?? Number(process.env.PORT || 3000);
  const hostname = options.hostname ?? (process.env.HOSTNAME || undefined);

  const { default: next } = await import("next");
  const server = createServer();
  const app = next({ dev: false, dir, hostname: hostname ?? "localhost", port, httpServer: server });
  await app.prepare();
  return listenAndServe(app.getRequestHandler(), { ...options, server, port, hostname, onClosed: () => app.close() });
}

// No whole-request deadline: a large push over a slow link may take longer than Node's default
// 5 minutes. Slow or stalled clients are bounded where it matters instead (git smart HTTP's idle
// and upload timeouts, body caps; docs/git-http.md "Limits"); headers must still arrive in 60 s.
// An idle kept-alive connection stays open 65 s (Node's default is 5 s): a client that reuses its
// connection just as the server closes it gets ECONNRESET for a request it had sent (seen in CI:
// Playwright's request context after ~5 s of page steps). 65 s outlasts the idle timeouts of the
// usual clients and proxies (Node's agent, Caddy's and nginx's upstream keep-alive), so the client
// closes first. An idle connection holds no more than a new one that sends nothing does (60 s).
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
function createServer() {
  const server = http.createServer({ requestTimeout: 0, headersTimeout: 60_000 });
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  return server;
}

/**
 * svc's HTTP server around a Node request handler (Next's, or the tests' svc routes): the request
 * guard, X-Forwarded-For, and the graceful `close` (see the header). Resolves once it listens.
 * @param {(req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>} handle
 * @param {{ server?: http.Server, port?: number, hostname?: string, trustProxy?: boolean, graceMs?: number,
 *   onClosed?: () => Promise<unknown> }} [options]
 *   port 0 picks a free one; graceMs: how long `close` lets running requests finish (ms, default
 *   SVC_SHUTDOWN_GRACE_MS) before it closes their connections; onClosed runs once they are done
 * @returns {Promise<{ server: http.Server, close: () => Promise<void>, graceMs: number }>}
 * @throws when the port cannot be bound
 */
export async function listenAndServe(handle, options = {}) {
  const server = options.server ?? createServer();
  const port = options.port ?? Number(process.env.PORT || 3000);
  const hostname = options.hostname ?? (process.env.HOSTNAME || undefined);
  const trustProxy = options.trustProxy ?? trustProxyFrom(process.env.TRUST_PROXY);
  const graceMs = options.graceMs ?? shutdownGraceFrom(process.env.SVC_SHUTDOWN_GRACE_MS);
  /** Responses not yet finished or closed. */
  const running = new Set();
  let stopping = false;

  server.on("request", (req, res) => {
    running.add(res);
    res.once("close", () => running.delete(res));
    // a request on a kept-alive connection while stopping: answered, then the connection closes
    if (stopping) res.shouldKeepAlive = false;
    const problem = requestTargetProblem(req.url);
    if (problem) {
      res
        .writeHead(400, { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" })
        .end(`bad request: ${problem}\n`);
      return;
    }
    const xff = forwardedFor(req.headers["x-forwarded-for"], req.socket.remoteAddress, trustProxy);
    if (xff) req.headers["x-forwarded-for"] = xff;
    else delete req.headers["x-forwarded-for"];
    handle(req, res).catch((err) => {
      console.error(`svc: request ${req.method} ${req.url} failed`, err);
      if (!res.headersSent) {
        res.statusCode = 500;
        res.end("Internal Server Error");
      } else res.destroy();
    });
  });

  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, () => {
      server.off("error", reject);
      resolve(undefined);
    });
  });

  /** Stops listening; resolves once every connection is closed (after graceMs, by force). */
  const drain = () =>
    new Promise((resolve) => {
      stopping = true;
      // an answer not started yet says `Connection: close` and its connection ends after it
      for (const res of running) if (!res.headersSent) res.shouldKeepAlive = false;
      // kept-alive connections whose answer ends later become idle then: close them as they do
      const idle = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        console.error(`svc: ${running.size} request(s) still running after ${graceMs} ms; closing their connections`);
        server.closeAllConnections();
      }, graceMs);
      server.close(() => {
        clearInterval(idle);
        clearTimeout(deadline);
        resolve(undefined);
      });
    });

  const closeJobs = () =>
    // background jobs started by instrumentation.ts (server/jobs/server-start.ts): let running jobs finish
    globalThis.__svcCloseJobs?.().catch((err) => console.error("svc: error while stopping background jobs", err));

  const close = async () => {
    console.log(
      `svc: stopping: new connections are refused; waiting up to ${graceMs} ms for ${running.size} running request(s) and up to 30 s for running jobs`,
    );
    // event streams (pull request pages) end now, and new ones end at once (server/shutdown.ts)
    (globalThis.__svcShutdown ??= new AbortController()).abort();
    await Promise.all([drain(), closeJobs()]);
    await closeJobs(); // a request that ended meanwhile may have queued a job, opening the queue again
    await options.onClosed?.();
    console.log("svc: stopped");
  };
  return { server, close, graceMs };
}

/**
 * Stops gracefully on SIGTERM/SIGINT (see the header) and exits 0, or 1 when closing failed or
 * took longer than `graceMs` + 35 s; a second signal exits at once with 130/143.
 * @param {() => Promise<void>} close
 * @param {number} [graceMs] the requests' grace of `close` (ms)
 */
export function closeOnSignals(close, graceMs = SHUTDOWN_GRACE_MS) {
  let closing = false;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.on(signal, () => {
      if (closing) process.exit(code);
      closing = true;
      setTimeout(() => {
        console.error(`svc: still stopping ${graceMs + JOBS_STOP_MS} ms after ${signal}; exiting`);
        process.exit(1);
      }, graceMs + JOBS_STOP_MS).unref();
      close().then(
        () => process.exit(0),
        (err) => {
          console.error("svc: error while closing", err);
          process.exit(1);
        },
      );
    });
  }
}

/**
 * Runs the server for `npm start` (scripts/start.mjs) or `node scripts/server.mjs`; prints
 * "svc: listening on <url> <note>" once it listens; exits 1 with a message when it cannot start.
 * @param {string} [note] appended to the listening line
 */
export async function main(note = "") {
  try {
    const { server, close, graceMs } = await serve();
    const addr = server.address();
    const host = !process.env.HOSTNAME || ["0.0.0.0", "::"].includes(process.env.HOSTNAME) ? "localhost" : process.env.HOSTNAME;
    console.log(
      `svc: listening on http://${host.includes(":") ? `[${host}]` : host}:${typeof addr === "object" && addr ? addr.port : ""} ${note}`.trimEnd(),
    );
    closeOnSignals(close, graceMs);
  } catch (err) {
    // Next prefixes a throw of the instrumentation hook; svc's own message is what the operator needs
    const message = err instanceof Error ? err.message.replace(/^An error occurred while loading instrumentation hook: /, "") : err;
    console.error(`svc: cannot start the server: ${message}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
