/**
 * svc's production server (scripts/start.mjs, `next build` output) for benches that measure HTTP:
 * started on a free loopback port with its own DATA_DIR and DATABASE_URL, resolved once it prints
 * "svc: listening on". Used by bench/repo-home.bench.ts and bench/request-floor.bench.ts.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

export interface ProductionServer {
  port: number;
  /** SIGTERM, then waits for the process to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the server of the checkout at `root` (its `.next` build) on a free loopback port.
 * `nodeArgs` go before the script (e.g. `--cpu-prof`); `echo` copies its stdout to ours.
 * Rejects, with the end of its output, when it exits before listening.
 */
export async function startProductionServer(options: {
  root: string;
  dataDir: string;
  databaseUrl: string;
  nodeArgs?: string[];
  echo?: boolean;
}): Promise<ProductionServer> {
  const port = await new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
  const server = spawn(process.execPath, [...(options.nodeArgs ?? []), path.join(options.root, "scripts/start.mjs")], {
    cwd: options.root,
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl,
      SVC_APP_ROOT: options.root,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => server.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (options.echo) process.stdout.write(c);
      if (out.includes("svc: listening on")) resolve();
    });
    void exited.then(() => reject(new Error(`the server exited before listening: ${out.slice(-2000)}`)));
  });
  return {
    port,
    async stop() {
      server.kill("SIGTERM");
      await exited;
    },
  };
}
