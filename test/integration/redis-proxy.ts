/**
 * A TCP proxy in front of the test Redis, to cut svc's Redis connections mid-run (Redis outage
 * tests): `cut()` destroys every proxied connection and stops listening (new connections are
 * refused, as when Redis is gone); `stall()` keeps every connection open but forwards nothing
 * and accepts new ones without answering (a hung Redis, or packets dropped on the way);
 * `restore()` undoes either.
 */
import net from "node:net";

export const REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";

export interface RedisProxy {
  /** redis://127.0.0.1:<proxy port> */
  url: string;
  cut(): Promise<void>;
  stall(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startRedisProxy(target = REDIS_URL): Promise<RedisProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let stalled = false;
  const listen = (onPort: number) =>
    new Promise<number>((resolve, reject) => {
      const s = net.createServer((client) => {
        sockets.add(client);
        client.on("close", () => sockets.delete(client));
        client.on("error", () => client.destroy());
        if (stalled) return; // accepted, never answered
        const upstream = net.connect(Number(port || 6379), hostname);
        for (const sock of [client, upstream]) {
          sockets.add(sock);
          sock.on("close", () => sockets.delete(sock));
          sock.on("error", () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      s.once("error", reject);
      s.listen(onPort, "127.0.0.1", () => {
        server = s;
        resolve((s.address() as net.AddressInfo).port);
      });
    });
  const proxyPort = await listen(0);
  const cut = async () => {
    const s = server;
    server = undefined;
    for (const sock of sockets) sock.destroy();
    sockets.clear();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  return {
    url: `redis://127.0.0.1:${proxyPort}`,
    cut,
    async stall() {
      stalled = true;
      for (const sock of sockets) {
        sock.unpipe();
        sock.pause();
      }
    },
    async restore() {
      if (stalled) {
        stalled = false;
        await cut(); // the stalled connections lost their bytes: start afresh
      }
      if (!server) await listen(proxyPort);
    },
    close: cut,
  };
}

/** A redis:// URL of a local port where nothing listens (bound, then released). */
export async function deadRedisUrl(): Promise<string> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
  const { port } = s.address() as net.AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return `redis://127.0.0.1:${port}`;
}
