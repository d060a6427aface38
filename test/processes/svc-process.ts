/**
 * A production svc server in a child process for the two-process test (./two-processes.test.ts):
 * `node scripts/server.mjs` — the server `npm start` runs, serving the `next build` output in
 * `.next` — on 127.0.0.1 and a port of its own, with the environment given. Nothing here is svc code.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "../..");

/** Longest wait for a server to print that it listens (ms): two Next servers starting at once on a loaded machine. */
const START_TIMEOUT_MS = 120_000;
/** How much of a server's output is kept for failure messages (characters, the latest). */
const LOG_KEEP = 200_000;

export interface SvcProcess {
  /** "A" or "B": the name in failure messages. */
  name: string;
  /** http://127.0.0.1:<port> */
  url: string;
  child: ChildProcess;
  /** What the server wrote to stdout and stderr so far (the latest LOG_KEEP characters). */
  log(): string;
  /**
   * The value of one sample of GET /api/metrics (with the METRICS_TOKEN the server was started
   * with), e.g. `metric('svc_redis_up{connection="limiter"}')`; undefined when it is not there.
   */
  metric(sample: string): Promise<number | undefined>;
  /** SIGTERM (the server lets running requests and jobs finish), SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

/** A TCP port on 127.0.0.1 that was free a moment ago (bound, then released). */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve, reject) => s.once("error", reject).listen(0, "127.0.0.1", () => resolve()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Throws unless `next build` has written its output (the test step runs after the build). */
export function assertBuilt(): void {
  if (!existsSync(path.join(ROOT, ".next/BUILD_ID")))
    throw new Error("no next build in .next: run `node scripts/start.mjs --build-only` (npm test builds before this step)");
}

/**
 * Starts `node scripts/server.mjs` with PORT `port`, HOSTNAME 127.0.0.1 and NEXTAUTH_URL
 * http://127.0.0.1:<port> over `env` (the whole environment of the child: nothing of this
 * process's is passed but PATH and HOME). Resolves once it printed `svc: listening on …` (the
 * server prints it after `app.prepare()`, which starts the job worker, and after `listen`);
 * rejects with its output when it exits first or does not listen within START_TIMEOUT_MS.
 */
export function startSvc(name: string, port: number, env: Record<string, string>): Promise<SvcProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [path.join(ROOT, "scripts/server.mjs")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NEXT_TELEMETRY_DISABLED: "1",
      SVC_APP_ROOT: ROOT,
      ...env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: url,
    } as Record<string, string | undefined> as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const append = (chunk: Buffer) => {
    log += chunk.toString();
    if (log.length > LOG_KEEP) log = log.slice(-LOG_KEEP);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
  const proc: SvcProcess = {
    name,
    url,
    child,
    log: () => log,
    metric: async (sample) => {
      const res = await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } });
      for (const line of (await res.text()).split("\n")) if (line.startsWith(`${sample} `)) return Number(line.slice(sample.length + 1));
      return undefined;
    },
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  return new Promise<SvcProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`svc ${name} did not listen within ${START_TIMEOUT_MS} ms:\n${log}`));
    }, START_TIMEOUT_MS);
    void exited.then((how) => {
      clearTimeout(timer);
      reject(new Error(`svc ${name} exited (${how}) before listening:\n${log}`));
    });
    const onData = () => {
      if (!/svc: listening on /.test(log)) return;
      clearTimeout(timer);
      child.stdout!.off("data", onData);
      resolve(proc);
    };
    child.stdout!.on("data", onData);
  });
}

/**
 * startSvc on a free port. A port taken between choosing it and the server binding it (the other
 * server started at the same moment, another test's server) is retried on another, up to 3 times.
 */
export async function startSvcOnFreePort(name: string, env: Record<string, string>): Promise<SvcProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSvc(name, await freePort(), env);
    } catch (e) {
      if (attempt >= 3 || !/EADDRINUSE/.test(String(e))) throw e;
    }
  }
}
