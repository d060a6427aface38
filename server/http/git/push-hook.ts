/**
 * Runs svc's push policy (services/repos/push-policy.ts) as git's pre-receive hook for every
 * repository, existing ones included, without writing into them (docs/git-http.md "Refused
 * pushes"). receive-pack is started with `-c core.hooksPath=<appRoot>/server/http/git/hooks`, whose
 * `pre-receive` is a small Node script. The script forwards its input, the push options and the
 * quarantine directory over a Unix socket to this process, which decides with the database and
 * the git helpers and answers the lines to print (`remote: …`) and the verdict.
 *
 * The socket is created lazily, one per process, as `hook.sock` (mode 0600) in a private
 * directory of its own, `<SVC_RUN_DIR or TMPDIR>/svc-hook-XXXXXX` (mkdtemp: mode 0700,
 * unguessable), removed when the process exits. Not in DATA_DIR: DATA_DIR may be shared by svc
 * processes on several hosts or containers (a network filesystem, a shared volume), where a
 * socket cannot be reached from another host or told apart from a dead one by its pid (pids are
 * per host and per container: docs/architecture.md "Several processes"). The hook always runs on
 * the host and in the container of the process that started its receive-pack. Sockets of killed processes are found by connecting (removeStaleHookSockets). Each
 * receive-pack gets a fresh random key in its own environment (never process.env): the key
 * names the repository being pushed to, and requests with an unknown key are refused. The hook
 * fails closed: no socket, no key, no answer → the push is refused.
 */
import net from "node:net";
import path from "node:path";
import os from "node:os";
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { lstat, readdir, rm } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { getConfig } from "@/server/config";
import type { Actor } from "@/server/auth/actor";
import { getDb } from "@/server/db";
import { AppError } from "@/server/errors";
import { checkPush, type PushVerdict } from "@/server/services/repos/push-policy";

/** What to add to a receive-pack command line and environment. */
export interface ReceivePackHook {
  /** `-c` options to put before `receive-pack`. */
  args: string[];
  /** Environment for receive-pack (and so for its hook). */
  env: Record<string, string>;
  /** Forget the key; call when receive-pack has exited. */
  release(): void;
}

/** Largest request a hook may send (bytes): its stdin (one line per ref) and options. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;
/** Sockets paths longer than this do not fit in sockaddr_un (108 bytes on Linux). */
const MAX_SOCKET_PATH = 100;
/** A socket directory's name (mkdtemp's six characters) and its socket's. */
const SOCKET_DIR = /^svc-hook-[A-Za-z0-9]{6}$/;
const SOCKET_FILE = "hook.sock";
/** A socket directory without a socket is left this long (ms) to the process that made it (listening takes milliseconds). */
const EMPTY_DIR_GRACE_MS = 60_000;

/** Keys of pushes that never ran (e.g. answered 503 before git started) are forgotten after this long (ms). */
const KEY_TTL_MS = 24 * 3600_000;

interface Push {
  gitDir: string;
  /** The repository's id and the pusher, for the rules of services/repos/update-branch.ts (null: unknown). */
  repoId: string | null;
  actor: Actor | null;
  createdAt: number;
}

const pushes = new Map<string, Push>();
let listening: Promise<string> | null = null;
let socketServer: net.Server | null = null;
let socketDir: string | null = null;
let hooksDir: string | null = null;

/** The directory given as core.hooksPath; checks once that its pre-receive is executable. Errors: plain Error (a broken install: refuse rather than push unchecked). */
function hooksPath(): string {
  if (hooksDir) return hooksDir;
  const dir = path.join(getConfig().appRoot, "server", "http", "git", "hooks");
  accessSync(path.join(dir, "pre-receive"), constants.X_OK);
  return (hooksDir = dir);
}

/**
 * Where socket directories are made: SVC_RUN_DIR (a directory local to this host, e.g. systemd's
 * RuntimeDirectory; made when missing), else TMPDIR (os.tmpdir()), else /tmp — the first whose
 * socket paths fit a Unix socket address.
 */
export function hookSocketBase(env: Record<string, string | undefined> = process.env): string {
  const run = env.SVC_RUN_DIR?.trim();
  for (const base of [run ? path.resolve(/* turbopackIgnore: true */ run) : "", os.tmpdir(), "/tmp"]) {
    if (!base || path.join(base, "svc-hook-XXXXXX", SOCKET_FILE).length > MAX_SOCKET_PATH) continue;
    if (base === run) mkdirSync(base, { recursive: true, mode: 0o700 });
    return base;
  }
  return "/tmp";
}

/** Whether something accepts connections on the Unix socket `file`: true, false (refused: nobody listens), or null (cannot tell). */
function accepts(file: string): Promise<boolean | null> {
  return new Promise((resolve) => {
    const probe = net.createConnection(file);
    probe.once("connect", () => {
      probe.destroy();
      resolve(true);
    });
    probe.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED" ? false : null));
  });
}

/**
 * Removes the socket directories in `base` (default hookSocketBase()) of svc processes that are
 * gone (killed before their exit handler ran): this user's `svc-hook-XXXXXX` directories whose
 * socket refuses connections — a socket nobody listens on, whichever pid namespace made it — and
 * those without a socket for EMPTY_DIR_GRACE_MS. A socket that accepts, or one that cannot be
 * probed (another user's, EACCES), is left, and so is `keep` (this process's own). Resolves to
 * the directories removed; never throws.
 * Sound only while `base` is local to this host: Unix sockets are not reachable across hosts, so
 * a live socket of another host would look refused (TMPDIR never points at a shared filesystem).
 */
export async function removeStaleHookSockets(base = hookSocketBase(), keep?: string): Promise<string[]> {
  const removed: string[] = [];
  const uid = process.getuid?.();
  for (const name of await readdir(/* turbopackIgnore: true */ base).catch(() => [] as string[])) {
    const dir = path.join(/* turbopackIgnore: true */ base, name);
    if (!SOCKET_DIR.test(name) || dir === keep) continue;
    const st = await lstat(dir).catch(() => null);
    if (!st?.isDirectory() || (uid !== undefined && st.uid !== uid)) continue;
    const sock = await lstat(path.join(dir, SOCKET_FILE)).catch(() => null);
    const stale = sock
      ? sock.isSocket() && (await accepts(path.join(dir, SOCKET_FILE))) === false
      : Date.now() - st.mtimeMs > EMPTY_DIR_GRACE_MS;
    if (!stale) continue;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
    removed.push(dir);
  }
  return removed;
}

async function answer(raw: string): Promise<PushVerdict> {
  let req: { key?: unknown; input?: unknown; pushOptions?: unknown; quarantine?: unknown };
  try {
    req = JSON.parse(raw);
  } catch {
    return { ok: false, messages: ["error: svc could not read the hook's request; push declined"] };
  }
  const push = typeof req.key === "string" ? pushes.get(req.key) : undefined;
  if (!push) return { ok: false, messages: ["error: svc does not know this push (hook key unknown); push declined"] };
  const pushOptions = Array.isArray(req.pushOptions) ? req.pushOptions.filter((o): o is string => typeof o === "string") : [];
  return checkPush(await getDb(), {
    gitDir: push.gitDir,
    input: typeof req.input === "string" ? req.input : "",
    pushOptions,
    quarantine: typeof req.quarantine === "string" && req.quarantine ? req.quarantine : null,
    repoId: push.repoId,
    actor: push.actor,
  });
}

function serve(socket: net.Socket): void {
  const chunks: Buffer[] = [];
  let size = 0;
  socket.on("error", () => {});
  socket.on("data", (c: Buffer) => {
    size += c.length;
    if (size > MAX_REQUEST_BYTES) socket.destroy();
    else chunks.push(c);
  });
  socket.on("end", () => {
    answer(Buffer.concat(chunks).toString("utf8"))
      .catch((e: unknown): PushVerdict => {
        console.error("push policy check failed", e);
        const msg = e instanceof AppError ? e.message : "internal error";
        return { ok: false, messages: [`error: svc could not check this push (${msg}); push declined, try again`] };
      })
      .then((v) => socket.end(JSON.stringify(v) + "\n"));
  });
}

/** Starts (once) the socket server of this process; resolves to its path. */
function listen(): Promise<string> {
  listening ??= new Promise<string>((resolve, reject) => {
    const base = hookSocketBase();
    const dir = mkdtempSync(path.join(base, "svc-hook-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, SOCKET_FILE);
    const server = net.createServer({ allowHalfOpen: true }, serve);
    socketServer = server;
    socketDir = dir;
    server.once("error", (e) => {
      listening = null;
      reject(e);
    });
    server.listen(file, () => {
      chmodSync(file, 0o600);
      server.unref();
      void removeStaleHookSockets(base, dir).then((gone) => {
        if (gone.length) console.warn(`svc: removed push-hook sockets of processes that are gone: ${gone.join(", ")}`);
      });
      resolve(file);
    });
  });
  return listening;
}

/**
 * Stops this process's push-hook socket server and removes its directory; the next push starts a
 * new one (under the SVC_RUN_DIR of that moment). For a process that keeps running after its
 * server stopped: tests that share one process across files (test/setup.ts).
 */
export function closePushHook(): void {
  const server = socketServer;
  const dir = socketDir;
  listening = null;
  socketServer = null;
  socketDir = null;
  // stops accepting at once; a hook still connected gets its answer or a closed socket
  server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/**
 * The command-line options and environment that make `git receive-pack` for `gitDir` run the
 * push policy. For the ref advertisement (`advertise`) only push options are enabled
 * (`receive.advertisePushOptions`, git-config(1)), so clients may send `-o allow-secret`.
 * `pusher`: the repository's id and the pushing actor, handed to the policy (null when unknown).
 * Errors: plain Error when the hook script is missing or the socket cannot be created (a
 * server fault; the push is not run unchecked).
 */
export async function receivePackHook(
  gitDir: string,
  advertise: boolean,
  pusher: { repoId: string | null; actor: Actor | null } = { repoId: null, actor: null },
): Promise<ReceivePackHook> {
  const base = ["-c", "receive.advertisePushOptions=true"];
  if (advertise) return { args: base, env: {}, release: () => {} };
  const dir = hooksPath();
  const socket = await listen();
  const key = randomBytes(32).toString("hex");
  const now = Date.now();
  for (const [k, p] of pushes) if (now - p.createdAt > KEY_TTL_MS) pushes.delete(k);
  pushes.set(key, { gitDir, repoId: pusher.repoId, actor: pusher.actor, createdAt: now });
  return {
    args: [...base, "-c", `core.hooksPath=${dir}`],
    // The hook is `#!/usr/bin/env node`: put this very Node first on its PATH.
    env: {
      SVC_HOOK_SOCKET: socket,
      SVC_HOOK_KEY: key,
      PATH: [path.dirname(process.execPath), process.env.PATH].filter(Boolean).join(path.delimiter),
    },
    release: () => pushes.delete(key),
  };
}
