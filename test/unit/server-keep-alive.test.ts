/**
 * svc's HTTP server keeps an idle connection 65 s (scripts/server.mjs `createServer`; docs/deploy.md
 * "Reverse proxy"): it says so in `Keep-Alive: timeout=65`, so clients that read the header close
 * first, and a second request on the connection reuses it instead of racing Node's 5-second default
 * (a reset seen in CI when a client came back after ~5 s).
 */
import http from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { listenAndServe } from "@/scripts/server.mjs";

const started = await listenAndServe(async (_req, res) => void res.end("ok"), { port: 0, hostname: "127.0.0.1", graceMs: 1000 });
const port = (started.server.address() as { port: number }).port;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
afterAll(async () => {
  agent.destroy();
  await started.close();
});

/** One GET on the kept-alive agent: the Keep-Alive header and whether the socket was reused. */
function get(): Promise<{ keepAlive: string | undefined; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/", agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ keepAlive: res.headers["keep-alive"]?.toString(), reused: req.reusedSocket }));
    });
    req.on("error", reject);
  });
}

describe("keep-alive", () => {
  it("announces a 65-second idle timeout and serves the next request on the same connection", async () => {
    const first = await get();
    expect(first).toEqual({ keepAlive: "timeout=65", reused: false });
    expect(await get()).toEqual({ keepAlive: "timeout=65", reused: true });
  });
});
