/**
 * The only code that runs the `git` binary (docs/contributing.md "Layers"). Argument arrays only
 * (never a shell); dynamic values pass through `userArg`, which refuses anything git could read as
 * an option; isolated configuration (no system or global config, a private HOME), no terminal
 * prompts, a timeout. `spawnGit` streams; `runGit` collects output up to a byte limit.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { AppError } from "@/server/errors";

export interface GitOptions {
  /** Sets GIT_DIR (a bare repository). */
  gitDir?: string;
  cwd?: string;
  /** Written to stdin, then stdin is closed. */
  input?: Buffer | string;
  /** Kill after this many ms (default 60 000; 0 = no limit, for long streams). */
  timeoutMs?: number;
  /** Extra environment, e.g. GIT_INDEX_FILE or GIT_PROTOCOL. */
  env?: Record<string, string | undefined>;
  /** runGit only: refuse stdout larger than this many bytes (default 64 MiB). */
  maxBytes?: number;
}

export interface GitResult {
  stdout: Buffer;
  stderr: string;
  code: number;
}

const GIT_HOME = path.join(os.tmpdir(), "svc-git-home");
mkdirSync(GIT_HOME, { recursive: true });

/** The environment every git process gets: nothing inherited beyond PATH and locale. */
export function gitEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: GIT_HOME,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "svc",
    GIT_AUTHOR_EMAIL: "svc@localhost",
    GIT_COMMITTER_NAME: "svc",
    GIT_COMMITTER_EMAIL: "svc@localhost",
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env as NodeJS.ProcessEnv;
}

/**
 * Guards a user-supplied value placed in git's argument list: refuses a leading `-` (it would
 * be read as an option), NUL and newlines. Returns the value. Errors: BAD_REQUEST naming `what`.
 */
export function userArg(value: string, what = "argument"): string {
  if (typeof value !== "string" || value.length === 0) throw new AppError("BAD_REQUEST", `${what} is empty`);
  if (value.startsWith("-")) throw new AppError("BAD_REQUEST", `${what} cannot start with "-"`);
  if (/[\0\n\r]/.test(value)) throw new AppError("BAD_REQUEST", `${what} contains a control character`);
  return value;
}

// Kept on globalThis: Next loads this module once per bundle layer (requests, and the job worker
// started by instrumentation.ts), and the count is of the whole process.
const processes = ((globalThis as { __svcGitProcesses?: { running: number; started: number } }).__svcGitProcesses ??= {
  running: 0,
  started: 0,
});

/** git processes of this Node process: `running` now, `started` since it began (server/metrics). */
export function gitProcessCounts(): { running: number; started: number } {
  return { running: processes.running, started: processes.started };
}

/** Starts git with streaming stdio. The caller owns the streams; a timeout kills the process. */
export function spawnGit(args: string[], opts: GitOptions = {}): ChildProcessWithoutNullStreams {
  const child = spawn("git", args, {
    cwd: opts.cwd,
    env: gitEnv({ ...(opts.gitDir ? { GIT_DIR: opts.gitDir } : {}), ...opts.env }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  processes.running += 1;
  processes.started += 1;
  // with piped stdio "close" comes once, also when git could not be started (after "error")
  child.once("close", () => (processes.running -= 1));
  const timeout = opts.timeoutMs ?? 60_000;
  if (timeout > 0) {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.once("close", () => clearTimeout(timer));
  }
  if (opts.input !== undefined) child.stdin.end(opts.input);
  return child;
}

/** Runs git to completion. Never throws for a non-zero exit: callers read `code`. Errors only when git cannot start or output passes `maxBytes`. */
export function runGit(args: string[], opts: GitOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, opts);
    if (opts.input === undefined) child.stdin.end();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const max = opts.maxBytes ?? 64 * 1024 * 1024;
    child.stdout.on("data", (c: Buffer) => {
      size += c.length;
      if (size > max) {
        child.kill("SIGKILL");
        reject(new AppError("BAD_REQUEST", `git output larger than ${max} bytes`));
        return;
      }
      out.push(c);
    });
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => {}); // git may exit before reading all input
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString("utf8"), code: code ?? (signal ? 128 : 1) }),
    );
  });
}

/** runGit that throws (plain Error, a server fault) on a non-zero exit; returns stdout as text. */
export async function gitText(args: string[], opts: GitOptions = {}): Promise<string> {
  const r = await runGit(args, opts);
  if (r.code !== 0) throw new Error(`git ${args[0]} failed (${r.code}): ${r.stderr.trim()}`);
  return r.stdout.toString("utf8");
}

/**
 * Runs git with its stdout written straight into the open file `fd` (no pipe through this
 * process: git's many small writes cost node a wake-up each), stdin closed; stderr collected (at
 * most 4 KiB). Resolves with the exit code (128 when killed) once git has exited. `kill()` stops it.
 * Errors: only when git cannot start.
 */
export function runGitToFile(
  args: string[],
  fd: number,
  opts: Omit<GitOptions, "input" | "maxBytes"> = {},
): { done: Promise<{ code: number; stderr: string }>; kill(): void } {
  const child = spawn("git", args, {
    cwd: opts.cwd,
    env: gitEnv({ ...(opts.gitDir ? { GIT_DIR: opts.gitDir } : {}), ...opts.env }),
    stdio: ["ignore", fd, "pipe"],
  });
  processes.running += 1;
  processes.started += 1;
  let stderr = "";
  child.stderr!.on("data", (c: Buffer) => {
    if (stderr.length < 4096) stderr += c.toString("utf8");
  });
  const timeout = opts.timeoutMs ?? 60_000;
  const timer = timeout > 0 ? setTimeout(() => child.kill("SIGKILL"), timeout) : undefined;
  const done = new Promise<{ code: number; stderr: string }>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => {
      processes.running -= 1;
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stderr: stderr.trim() });
    });
  });
  return {
    done,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}
