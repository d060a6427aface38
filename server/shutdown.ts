/**
 * This process's shutdown signal: aborted when svc's server (scripts/server.mjs) begins its
 * graceful stop on SIGTERM/SIGINT (docs/deploy.md "Stopping"). Long-lived answers that would hold
 * the stop for their whole life — a pull request page's event stream (up to 30 min) — end on it,
 * and ones that start afterwards end at once, so the browser's EventSource reconnects, through
 * the proxy, to a process that is not stopping.
 *
 * Kept on globalThis (`__svcShutdown`, an AbortController): server.mjs is plain Node outside
 * Next's bundles, and Next evaluates this module once per bundle. Never aborted in tests, the CLI
 * or `next dev`.
 */
import { setMaxListeners } from "node:events";

const holder = globalThis as { __svcShutdown?: AbortController };

/** The signal; `aborted` once the server is stopping. One listener per open stream (no listener limit). */
export function shutdownSignal(): AbortSignal {
  const signal = (holder.__svcShutdown ??= new AbortController()).signal;
  setMaxListeners(0, signal);
  return signal;
}
