// svc's HTTP server: the production Next app on node:http through Next's documented custom-server
// API (`next({ dev: false, dir, hostname, port })`, `prepare()`, `getRequestHandler()`), with one
// change to every request: X-Forwarded-For is set here from the connection (scripts/client-address.mjs),
// so the app's per-IP limits cannot be fooled by a forged header; and one refusal: a path with a
// malformed percent-escape is answered 400 here (scripts/request-guard.mjs), where Next would 500. Request and response bodies are
// streamed by Next as with `next start` (git pushes of hundreds of MB go through: nothing buffers).
//
//   node scripts/server.mjs        serve an existing build (`node scripts/start.mjs` builds first)
//
// Environment: PORT (3000), HOSTNAME (all interfaces), TRUST_PROXY=1 (one reverse proxy in front).
// Before it listens, `app.prepare()` runs instrumentation.ts (server/process-start.ts): the SQLite
// server lock, the database's migrations, the background job worker. A refusal there ends the start.
// SIGTERM/SIGINT: stop accepting connections, let running requests and jobs finish, then exit (130/143);
// a second signal exits at once.
import http from "node:http";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { forwardedFor, trustProxyFrom } from "./client-address.mjs";
import { requestTargetProblem } from "./request-guard.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Starts the production server and resolves once it listens.
 * @param {{ dir?: string, port?: number, hostname?: string, trustProxy?: boolean }} [options]
 *   dir: the built svc folder (default: this package); port: TCP port (PORT, default 3000);
 *   hostname: address to listen on (HOSTNAME, default all interfaces); trustProxy: TRUST_PROXY
 * @returns {Promise<{ server: http.Server, close: () => Promise<void> }>}
 * @throws when there is no build in `<dir>/.next` or the port cannot be bound
 */
export async function serve(options = {}) {
  process.env.NODE_ENV = "production";
  process.env.NEXT_TELEMETRY_DISABLED ??= "1";
  const dir = options.dir ?? root;
  const port = options.port ?? Number(process.env.PORT || 3000);
  const hostname = options.hostname ?? (process.env.HOSTNAME || undefined);
  const trustProxy = options.trustProxy ?? trustProxyFrom(process.env.TRUST_PROXY);

  const { default: next } = await import("next");
  // No whole-request deadline: a large push over a slow link may take longer than Node's default
  // 5 minutes. Slow or stalled clients are bounded where it matters instead (git smart HTTP's idle
  // and upload timeouts, body caps; docs/git-http.md "Limits"); headers must still arrive in 60 s.
  const server = http.createServer({ requestTimeout: 0, headersTimeout: 60_000 });
  const app = next({ dev: false, dir, hostname: hostname ?? "localhost", port, httpServer: server });
  await app.prepare();
  const handle = app.getRequestHandler();

  server.on("request", (req, res) => {
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

  const close = async () => {
    await new Promise((resolve) => server.close(() => resolve(undefined)));
    // background jobs started by instrumentation.ts (server/jobs/server-start.ts): let running jobs finish
    await globalThis.__svcCloseJobs?.().catch((err) => console.error("svc: error while stopping background jobs", err));
    await app.close();
  };
  return { server, close };
}

/** Exits gracefully on SIGTERM/SIGINT (see the header); a second signal exits at once. */
function closeOnSignals(close) {
  let closing = false;
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ]) {
    process.on(signal, () => {
      if (closing) process.exit(code);
      closing = true;
      close().then(
        () => process.exit(code),
        (err) => {
          console.error("svc: error while closing", err);
          process.exit(code);
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
    const { server, close } = await serve();
    const addr = server.address();
    const host = !process.env.HOSTNAME || ["0.0.0.0", "::"].includes(process.env.HOSTNAME) ? "localhost" : process.env.HOSTNAME;
    console.log(
      `svc: listening on http://${host.includes(":") ? `[${host}]` : host}:${typeof addr === "object" && addr ? addr.port : ""} ${note}`.trimEnd(),
    );
    closeOnSignals(close);
  } catch (err) {
    // Next prefixes a throw of the instrumentation hook; svc's own message is what the operator needs
    const message = err instanceof Error ? err.message.replace(/^An error occurred while loading instrumentation hook: /, "") : err;
    console.error(`svc: cannot start the server: ${message}`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
