/**
 * Bounded reads of a git process's stdout (docs/git-http.md "Streaming, gzip and
 * process handling"): read just a prefix and stop git, or
 * hand the output to an HTTP response as a pull-based web stream, so memory stays flat whatever
 * the size of the output. Processes come from `spawnGit` (server/git/exec.ts).
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { spawnGit, type GitOptions } from "./exec";

/** Stops git now (SIGKILL: a `cat-file` has no children and nothing to clean up). */
function stop(child: ChildProcessWithoutNullStreams): void {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

function exitCode(child: ChildProcessWithoutNullStreams): Promise<number> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode ?? 128);
  return new Promise((resolve) => child.once("close", (code, signal) => resolve(code ?? (signal ? 128 : 1))));
}

/** A running git command whose stdout is read chunk by chunk (paused mode: git waits while nobody reads). */
export interface GitOutput {
  /** The next chunk, or null at the end. Errors: git failed (non-zero exit, plain Error). */
  next(): Promise<Buffer | null>;
  /** Kills git; later `next()` calls answer null. */
  stop(): void;
}

/**
 * Starts `git <args>` (stdin closed) and reads its stdout on demand. `onExit` runs once when the
 * process has exited (e.g. to release a process-gate slot).
 */
export function gitOutput(args: string[], opts: Omit<GitOptions, "input" | "maxBytes"> & { onExit?: () => void } = {}): GitOutput {
  const child = spawnGit(args, opts);
  if (opts.onExit) {
    const onExit = opts.onExit;
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      onExit();
    };
    child.once("close", end);
    child.once("error", () => child.pid === undefined && end());
  }
  child.stdin.end();
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => {
    if (stderr.length < 4096) stderr += c.toString("utf8");
  });
  const exited = exitCode(child);
  child.on("error", () => {}); // reported through the exit code (git not found → close with an error code)
  const chunks = child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let stopped = false;
  return {
    async next() {
      if (stopped) return null;
      let r: IteratorResult<Buffer>;
      try {
        r = await chunks.next();
      } catch (e) {
        if (stopped) return null; // stdout closed early because we stopped git
        throw e;
      }
      if (!r.done) return r.value;
      const code = await exited;
      if (code !== 0 && !stopped) throw new Error(`git ${args[0]} failed (${code}): ${stderr.trim()}`);
      return null;
    },
    stop() {
      stopped = true;
      stop(child);
      void chunks.return?.();
    },
  };
}

/**
 * Reads at least `bytes` bytes of `out` (fewer only when the output is shorter); git keeps
 * running (the caller streams the rest or calls `stop`). Returns the chunks read: their total may
 * pass `bytes` by up to one pipe chunk (≤ 64 KiB). Errors: as `GitOutput.next`.
 */
export async function readAtLeast(out: GitOutput, bytes: number): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < bytes) {
    const c = await out.next();
    if (c === null) break;
    chunks.push(c);
    total += c.length;
  }
  return chunks;
}

/**
 * The output as a web ReadableStream for a Response body: `head` (chunks already read) first,
 * then git's stdout, one chunk per pull, so a slow client slows git down (backpressure) instead
 * of filling memory. Cancelling the stream (the client went away) kills git. When `expectedBytes`
 * is given and the output ends at another length, the stream errors instead of closing, so the
 * client sees a broken download rather than a silently short file. With `idleMs`, a client that
 * stops reading for that long (no pull) gets the stream errored and git stopped, so a stalled
 * reader cannot hold a git process for ever.
 */
export function outputStream(
  out: GitOutput,
  head: Buffer[],
  expectedBytes?: number,
  opts: { idleMs?: number } = {},
): ReadableStream<Uint8Array> {
  let sent = 0;
  const queued = [...head];
  let idle: ReturnType<typeof setTimeout> | undefined;
  let armIdle: (() => void) | undefined;
  const stopIdle = () => idle !== undefined && clearTimeout(idle);
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (!opts.idleMs) return;
        const idleMs = opts.idleMs;
        const arm = () => {
          stopIdle();
          idle = setTimeout(() => {
            out.stop();
            controller.error(new Error(`client read nothing for ${idleMs} ms`));
          }, idleMs);
          idle.unref?.();
        };
        arm();
        armIdle = arm;
      },
      async pull(controller) {
        armIdle?.();
        try {
          const chunk = queued.shift() ?? (await out.next());
          if (chunk) {
            sent += chunk.length;
            controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
            return;
          }
          if (expectedBytes !== undefined && sent !== expectedBytes)
            throw new Error(`git output ended after ${sent} of ${expectedBytes} bytes`);
          stopIdle();
          controller.close();
        } catch (e) {
          stopIdle();
          out.stop();
          controller.error(e);
        }
      },
      cancel() {
        stopIdle();
        out.stop();
      },
    },
    { highWaterMark: 0 },
  );
}
