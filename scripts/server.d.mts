// Types for scripts/server.mjs (plain Node, run without a build step).
import type http from "node:http";

export const SHUTDOWN_GRACE_MS: number;
export const JOBS_STOP_MS: number;
export function shutdownGraceFrom(value: string | undefined): number;

export interface Served {
  server: http.Server;
  /** The graceful stop: refuse new connections, end event streams, let requests (graceMs) and jobs (30 s) finish. */
  close: () => Promise<void>;
  graceMs: number;
}

export function serve(options?: {
  dir?: string;
  port?: number;
  hostname?: string;
  trustProxy?: boolean;
  graceMs?: number;
}): Promise<Served>;
export function listenAndServe(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<unknown>,
  options?: {
    server?: http.Server;
    port?: number;
    hostname?: string;
    trustProxy?: boolean;
    graceMs?: number;
    onClosed?: () => Promise<unknown>;
  },
): Promise<Served>;
export function closeOnSignals(close: () => Promise<void>, graceMs?: number): void;
export function main(note?: string): Promise<void>;
