/**
 * SSH server metrics (server/ssh/server.ts; README "Metrics", docs/ssh.md "Limits"):
 *
 *   svc_ssh_connections_total{result}             TCP connections: `accepted`, or `refused` at the
 *                                                 connection limits (all, or one address's)
 *   svc_ssh_connections_open                      connections open now
 *   svc_ssh_authentications_total{result}         accepted connections by outcome: `accepted` (a
 *                                                 key signed in), `failed` (closed before one did:
 *                                                 unknown keys, too many attempts, the timeout)
 *   svc_ssh_commands_total{command, result}       commands run: `upload-pack`, `receive-pack`,
 *                                                 `upload-archive`, `lfs-authenticate`, `refused`
 *                                                 (shells, other commands, subsystems); `ok` (exit
 *                                                 status 0) or `error`
 *
 * Label values are fixed sets, whatever clients send. Nothing is recorded unless metrics are on
 * (metricsEnabled: METRICS_TOKEN set).
 */
import { Counter, Gauge } from "prom-client";
import { metric, metricsEnabled } from "./registry";

/** What an SSH command is counted as. */
export type SshCommandLabel = "upload-pack" | "receive-pack" | "upload-archive" | "lfs-authenticate" | "refused";

function sshMetrics() {
  return metric("svc_ssh", (registry) => ({
    connections: new Counter({
      name: "svc_ssh_connections_total",
      help: "SSH connections: accepted, or refused at the connection limits.",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    open: new Gauge({ name: "svc_ssh_connections_open", help: "SSH connections open now.", registers: [registry] }),
    authentications: new Counter({
      name: "svc_ssh_authentications_total",
      help: "Accepted SSH connections by outcome: accepted (a key signed in) or failed (closed before one did).",
      labelNames: ["result"] as const,
      registers: [registry],
    }),
    commands: new Counter({
      name: "svc_ssh_commands_total",
      help: "SSH commands by command (upload-pack, receive-pack, upload-archive, lfs-authenticate, refused) and result (ok, error).",
      labelNames: ["command", "result"] as const,
      registers: [registry],
    }),
  }));
}

/** A TCP connection reached the SSH server: `accepted`, or `refused` at a connection limit. */
export function observeSshConnection(result: "accepted" | "refused"): void {
  if (!metricsEnabled()) return;
  const m = sshMetrics();
  m.connections.inc({ result });
  if (result === "accepted") m.open.inc();
}

/** An accepted connection closed; `authenticated`: a key had signed in on it. */
export function observeSshClose(authenticated: boolean): void {
  if (!metricsEnabled()) return;
  const m = sshMetrics();
  m.open.dec();
  if (!authenticated) m.authentications.inc({ result: "failed" });
}

/** A key signed in on a connection. */
export function observeSshAuthenticated(): void {
  if (metricsEnabled()) sshMetrics().authentications.inc({ result: "accepted" });
}

/** A command ended with exit status `code` (a refused one: `refused`, whatever its status). */
export function observeSshCommand(command: SshCommandLabel, code: number): void {
  if (metricsEnabled()) sshMetrics().commands.inc({ command, result: command !== "refused" && code === 0 ? "ok" : "error" });
}
