/**
 * Runs svc's push policy (services/repos/push-policy.ts) as git's pre-receive hook for every
 * repository, existing ones included, without writing into them (docs/git-http.md "Refused
 * pushes"). receive-pack is started with `-c core.hooksPath=<appRoot>/server/http/git/hooks`, whose
 * `pre-receive` is a small Node script. The script forwards its input, the push options and the
 * quarantine directory over a Unix socket to this process, which decides with the database and
 * the git helpers and answers the lines to print (`remote: …`) and the verdict.
 *
 * The socket is created lazily, one per process, in DATA_DIR/run (mode 0700 directory, 0600
 * socket; a private temporary directory when that path is too long for a socket). Each
 * receive-pack gets a fresh random key in its own environment (never process.env): the key
 * names the repository being pushed to, and requests with an unknown key are refused. The hook
 * fails closed: no socket, no key, no answer → the push is refused.
 */
import net from "node:net";
import path from "node:path";
import os from "node:os";
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs";
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
let hooksDir: string | null = null;

/** The directory given as core.hooksPath; checks once that its pre-receive is executable. Errors: plain Error (a broken install: refuse rather than push unchecked). */
function hooksPath(): string {
  if (hooksDir) return hooksDir;
  const dir = path.join(getConfig().appRoot, "server", "http", "git", "hooks");
  accessSync(path.join(dir, "pre-receive"), constants.X_OK);
  return (hooksDir = dir);
}

/** Removes the sockets of svc processes that are gone (killed before their exit handler ran). */
function removeDeadSockets(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = Number(/^hook-(\d+)-[0-9a-f]+\.sock$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0); // alive (or another user's): leave it
    } catch (e) {
      if ((e as { code?: string }).code === "ESRCH") rmSync(path.join(dir, name), { force: true });
    }
  }
}

function socketDir(): string {
  const dir = path.join(getConfig().dataDir, "run");
  if (path.join(dir, "hook-0000000-00000000.sock").length <= MAX_SOCKET_PATH) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    removeDeadSockets(dir);
    return dir;
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-run-"));
  process.once("exit", () => rmSync(tmp, { recursive: true, force: true }));
  return tmp;
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
    const file = path.join(socketDir(), `hook-${process.pid}-${randomBytes(4).toString("hex")}.sock`);
    const server = net.createServer({ allowHalfOpen: true }, serve);
    server.once("error", (e) => {
      listening = null;
      reject(e);
    });
    server.listen(file, () => {
      chmodSync(file, 0o600);
      server.unref();
      process.once("exit", () => {
        try {
          unlinkSync(file);
        } catch {
          // already gone
        }
      });
      resolve(file);
    });
  });
  return listening;
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
