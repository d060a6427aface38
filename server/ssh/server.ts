/**
 * svc's SSH server for git (docs/ssh.md): public-key authentication only (user keys and deploy
 * keys, ./authenticate.ts), exec requests of git's three SSH commands only (./command.ts), each
 * served by ./git-session.ts, and Git LFS's `git-lfs-authenticate` (./lfs-authenticate.ts;
 * `git-lfs-transfer` is refused so git-lfs falls back to it). Everything else — shell, pty, other commands, env other than
 * GIT_PROTOCOL, subsystems (sftp), agent/X11/port forwarding — is refused: a shell or command
 * with a message on stderr and exit status 1, requests with a protocol-level refusal.
 * Started by server/process-start.ts when SVC_SSH_PORT is set; stopped on shutdown.
 */
import net from "node:net";
import ssh2, { type Connection, type ServerChannel } from "ssh2";
import { getDb } from "@/server/db";
import { loadHostKeys } from "./host-keys";
import { principalOfKey, touchKey, type SshPrincipal } from "./authenticate";
import { parseGitCommand, parseLfsCommand } from "./command";
import { serveLfsAuthenticate } from "./lfs-authenticate";
import { serveGitCommand } from "./git-session";
import { sharedSlots, type SharedSlot } from "@/server/http/shared-slots";
import { readProxyHeader } from "./proxy-protocol";
import {
  observeSshAuthenticated,
  observeSshClose,
  observeSshCommand,
  observeSshConnection,
  type SshCommandLabel,
} from "@/server/metrics/ssh";

// ssh2 is CommonJS: Node's ESM loader (the CLI, scripts/serve.ts) gives it as a default export only
const { Server, utils } = ssh2;

/** Bounds of the SSH server (docs/ssh.md "Limits"). */
export interface SshLimits {
  /** Open connections in all, beyond which new ones are closed at once. */
  maxConnections: number;
  /** Open connections from one IP address (with REDIS_URL: all svc processes together, too). */
  maxPerAddress: number;
  /** With REDIS_URL: open connections of all svc processes together (each also keeps its own `maxConnections`). */
  maxConnectionsShared: number;
  /** Time a client has to authenticate, ms. */
  authTimeoutMs: number;
  /** Authentication requests (none, key queries, signatures) allowed per connection. */
  maxAuthAttempts: number;
  /** A connection with no traffic for this long is closed, ms. */
  idleMs: number;
  /** Sessions (channels) one connection may have open at once. */
  maxSessions: number;
}

export const SSH_LIMITS: SshLimits = {
  maxConnections: 256,
  maxPerAddress: 16,
  maxConnectionsShared: 1024,
  authTimeoutMs: 30_000,
  maxAuthAttempts: 10,
  idleMs: 10 * 60_000,
  maxSessions: 4,
};

export interface SshServerOptions {
  /** Port to listen on (0: any free one). */
  port: number;
  /** Address to bind (default all). */
  host?: string;
  /** Directory of the host keys (DATA_DIR/ssh). */
  hostKeyDir: string;
  limits?: Partial<SshLimits>;
  /**
   * Every connection starts with a PROXY protocol header (v1 or v2) naming the client, as a TCP
   * load balancer sends it (SVC_SSH_PROXY_PROTOCOL=1; ./proxy-protocol.ts). A connection without
   * a valid one within `authTimeoutMs` is closed. Only for a port that the balancer alone can reach.
   */
  proxyProtocol?: boolean;
}

export interface RunningSshServer {
  /** The port actually bound. */
  port: number;
  /**
   * Stops accepting at once; open connections (running git commands) get `graceMs` (default 0)
   * to finish, then are cut. Resolves when every connection is gone.
   */
  close(graceMs?: number): Promise<void>;
}

/** GIT_PROTOCOL values passed on (git's `version=2` and similar). */
const GIT_PROTOCOL = /^[A-Za-z0-9=:._-]{1,100}$/;

const NO_SHELL = "svc does not provide shell access; use git (git clone ssh://…) with this key.";

/** Ends a session channel with a message on stderr and exit status 1. */
function refuseChannel(channel: ServerChannel, message: string): void {
  observeSshCommand("refused", 1);
  channel.stderr.write(`svc: ${message}\n`);
  channel.exit(1);
  channel.end();
}

function handleClient(client: Connection, address: string, limits: SshLimits, authenticated: () => void): void {
  let attempts = 0;
  let principal: SshPrincipal | null = null;
  client.on("error", () => {});
  client.on("authentication", (ctx) => {
    attempts += 1;
    if (attempts > limits.maxAuthAttempts) {
      ctx.reject([], false);
      client.end();
      return;
    }
    if (ctx.method !== "publickey") return ctx.reject(["publickey"]);
    void (async () => {
      const found = await principalOfKey(await getDb(), ctx.key.data);
      if (!found) return ctx.reject(["publickey"]);
      if (!ctx.signature) return ctx.accept(); // the client asks whether the key would do
      const key = utils.parseKey(found.publicKey);
      if (key instanceof Error || Array.isArray(key) || key.verify(ctx.blob!, ctx.signature, ctx.hashAlgo) !== true)
        return ctx.reject(["publickey"]);
      principal = found;
      ctx.accept();
    })().catch((e: unknown) => {
      console.error("SSH authentication failed with an error", e);
      ctx.reject(["publickey"]);
    });
  });
  client.on("ready", () => {
    authenticated();
    const who = principal!;
    // lastUsedAt is written before any command runs (so it is there once the command ends)
    const touched = getDb().then((db) => touchKey(db, who));
    let sessions = 0;
    client.on("session", (accept, reject) => {
      if (sessions >= limits.maxSessions) return reject();
      sessions += 1;
      const session = accept();
      let protocol: string | undefined;
      let used = false;
      session.on("close", () => (sessions -= 1));
      session.on("pty", (_accept, reject) => reject?.());
      session.on("x11", (_accept, reject) => reject?.());
      session.on("auth-agent", (_accept, reject) => reject?.());
      session.on("signal", (_accept, reject) => reject?.());
      session.on("window-change", (_accept, reject) => reject?.());
      session.on("env", (accept, reject, info) => {
        if (info.key === "GIT_PROTOCOL" && GIT_PROTOCOL.test(info.val)) {
          protocol = info.val;
          accept?.();
        } else reject?.();
      });
      session.on("subsystem", (accept) => refuseChannel(accept(), NO_SHELL));
      session.on("shell", (accept) => {
        const greeting = who.kind === "user" ? `Hi ${who.actor.user.username}! ` : `Hi deploy key "${who.title}"! `;
        refuseChannel(accept(), greeting + NO_SHELL);
      });
      session.on("exec", (accept, _reject, info) => {
        const channel = accept();
        if (used) return refuseChannel(channel, "one command per session");
        used = true;
        const lfs = parseLfsCommand(info.command);
        if (lfs && "problem" in lfs) return refuseChannel(channel, lfs.problem);
        if (lfs) {
          touched
            .then(() => serveLfsAuthenticate(channel, who, lfs))
            .catch((e: unknown) => {
              console.error(`SSH git-lfs-authenticate for ${lfs.owner}/${lfs.name} failed`, e);
              channel.stderr.write("svc: internal error\n");
              return 1;
            })
            .then((code) => {
              observeSshCommand("lfs-authenticate", code);
              channel.exit(code);
              channel.end();
            });
          return;
        }
        const cmd = parseGitCommand(info.command);
        if ("problem" in cmd) return refuseChannel(channel, cmd.problem);
        touched
          .then(() => serveGitCommand(channel, who, cmd, address, protocol))
          .catch((e: unknown) => {
            console.error(`SSH ${cmd.service} for ${cmd.owner}/${cmd.name} failed`, e);
            channel.stderr.write("svc: internal error\n");
            return 1;
          })
          .then((code) => {
            observeSshCommand(cmd.service.slice("git-".length) as SshCommandLabel, code);
            channel.exit(code);
            channel.end();
          });
      });
    });
  });
  client.on("tcpip", (_accept, reject) => reject());
  client.on("openssh.streamlocal", (_accept, reject) => reject());
  client.on("request", (_accept, reject) => reject?.());
}

/**
 * Starts the SSH server (host keys from/into `hostKeyDir`). Resolves once listening.
 * Errors: the listen error (e.g. EADDRINUSE).
 */
export async function startSshServer(opts: SshServerOptions): Promise<RunningSshServer> {
  const limits = { ...SSH_LIMITS, ...opts.limits };
  const ssh = new Server({ hostKeys: loadHostKeys(opts.hostKeyDir), ident: "svc" }, () => {});
  ssh.removeAllListeners("connection");
  const perAddress = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  // a connection must authenticate within authTimeoutMs, or its socket is destroyed (keyed ip:port)
  const authTimers = new Map<string, NodeJS.Timeout>();
  // connections on which a key signed in (same keys), for the metrics
  const authenticated = new Set<string>();
  ssh.on("connection", (client, info) =>
    handleClient(client, info.ip, limits, () => {
      const key = `${info.ip}:${info.port}`;
      clearTimeout(authTimers.get(key));
      authTimers.delete(key);
      authenticated.add(key);
      observeSshAuthenticated();
    }),
  );
  /** A connection whose client address is known: the caps, the timers, the shared slot, then ssh2. */
  const accept = (socket: net.Socket) => {
    const address = socket.remoteAddress ?? "unknown";
    const count = perAddress.get(address) ?? 0;
    if (sockets.size >= limits.maxConnections || count >= limits.maxPerAddress) {
      observeSshConnection("refused");
      socket.destroy();
      return;
    }
    perAddress.set(address, count + 1);
    sockets.add(socket);
    const timerKey = `${address}:${socket.remotePort}`;
    const authTimer = setTimeout(() => socket.destroy(), limits.authTimeoutMs);
    authTimer.unref();
    authTimers.set(timerKey, authTimer);
    // admitted: counted in the metrics, holding its shared slot (with REDIS_URL)
    let admitted: { slot: SharedSlot | null } | null = null;
    socket.once("close", () => {
      clearTimeout(authTimer);
      authTimers.delete(timerKey);
      if (admitted) {
        admitted.slot?.release();
        observeSshClose(authenticated.delete(timerKey));
      }
      sockets.delete(socket);
      const n = (perAddress.get(address) ?? 1) - 1;
      if (n <= 0) perAddress.delete(address);
      else perAddress.set(address, n);
    });
    socket.setTimeout(limits.idleMs, () => socket.destroy());
    const admit = (slot: SharedSlot | null) => {
      if (socket.destroyed) return slot?.release(); // gone while its shared slot was asked for
      admitted = { slot };
      observeSshConnection("accepted");
      ssh.injectSocket(socket);
      socket.resume(); // paused after a PROXY header (./proxy-protocol.ts)
    };
    // across processes (docs/ssh.md "Limits"): the per-address and total caps counted in Redis;
    // Redis failing counts per process only, as the git process gate does
    const shared = sharedSlots("ssh");
    if (!shared) return admit(null);
    void shared.tryAcquire(`ip:${address}`, { total: limits.maxConnectionsShared, perClient: limits.maxPerAddress }).then((r) => {
      if (r !== "full") return admit(r === "unavailable" ? null : r);
      observeSshConnection("refused");
      socket.destroy();
    });
  };
  // connections waiting for their PROXY header (SVC_SSH_PROXY_PROTOCOL=1), cut on close too
  const pending = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    socket.on("error", () => {});
    if (!opts.proxyProtocol) return accept(socket);
    if (sockets.size + pending.size >= limits.maxConnections) {
      observeSshConnection("refused");
      socket.destroy();
      return;
    }
    pending.add(socket);
    readProxyHeader(socket, limits.authTimeoutMs).then(
      (peer) => {
        pending.delete(socket);
        if (socket.destroyed) return;
        // the client the balancer names: what the caps, the git process gate and ssh2's `info.ip` see
        if (peer) Object.defineProperties(socket, { remoteAddress: { value: peer.address }, remotePort: { value: peer.port } });
        accept(socket);
      },
      () => {
        pending.delete(socket);
        socket.destroy();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(opts.port, opts.host, () => {
      tcp.off("error", reject);
      resolve();
    });
  });
  const port = (tcp.address() as net.AddressInfo).port;
  return {
    port,
    close: (graceMs = 0) =>
      new Promise<void>((resolve) => {
        tcp.close(() => resolve());
        const cut = () => {
          for (const s of [...sockets, ...pending]) s.destroy();
        };
        if (graceMs <= 0) cut();
        else setTimeout(cut, graceMs).unref();
      }),
  };
}
