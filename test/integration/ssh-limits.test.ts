/**
 * The SSH server's bounds and what an operator sees of it (docs/ssh.md "Limits"): the
 * per-address cap and the authentication timeout, the same caps counted over several processes
 * with Redis, the PROXY protocol header of a TCP load balancer, and the svc_ssh_* metrics (on for
 * the whole file, as METRICS_TOKEN is for a server's life). The real OpenSSH client and git.
 */
import net from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/server/config";
import { closeSharedSlots } from "@/server/http/shared-slots";
import { metricsRegistry } from "@/server/metrics/registry";
import { startSshServer, type RunningSshServer } from "@/server/ssh/server";
import type { Profile } from "@/server/services/users/profile";
import { actorOf, callerFor, makeUser } from "../helpers";
import { closedWithin, keygen as keygenIn, pub, run, sshOpts } from "../fixtures/ssh-client";

let dir: string;
let server: RunningSshServer;
let owner: Profile;
let ownerKey: string;
let n = 0;
const keygen = (name: string) => keygenIn(dir, name);
const url = (p: string) => `ssh://git@127.0.0.1:${server.port}/${p}`;

/** Clones `repoPath` with `key` into a fresh directory. */
async function clone(key: string, repoPath: string) {
  const target = path.join(dir, `clone-${++n}`);
  const env = { GIT_SSH_COMMAND: `ssh ${sshOpts(key).join(" ")} -p ${server.port}`, GIT_TERMINAL_PROMPT: "0" };
  return { dir: target, result: await run("git", ["clone", "--quiet", url(repoPath), target], { env }) };
}

const previousMetricsToken = process.env.METRICS_TOKEN;
beforeAll(async () => {
  process.env.METRICS_TOKEN = "ssh-metrics-test";
  resetConfig();
  dir = mkdtempSync(path.join(tmpdir(), "svc-sshlimits-"));
  server = await startSshServer({ port: 0, host: "127.0.0.1", hostKeyDir: path.join(dir, "hostkeys") });
  owner = await makeUser("sshlimits");
  const caller = await callerFor(actorOf(owner));
  await caller.repos.create({ name: "ssh-repo", isPrivate: true });
  ownerKey = keygen("owner");
  await caller.sshKeys.add({ title: "laptop", publicKey: pub(ownerKey) });
});
afterAll(async () => {
  await server?.close();
  if (previousMetricsToken === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = previousMetricsToken;
  resetConfig();
});

describe("SSH limits", () => {
  it("closes connections past the per-address cap and those that do not authenticate in time", async () => {
    const limited = await startSshServer({
      port: 0,
      host: "127.0.0.1",
      hostKeyDir: path.join(dir, "hostkeys"),
      limits: { maxPerAddress: 1, authTimeoutMs: 300 },
    });
    try {
      const first = net.connect(limited.port, "127.0.0.1");
      first.on("error", () => {});
      await new Promise((r) => first.once("data", r)); // the server's banner
      const second = net.connect(limited.port, "127.0.0.1");
      second.on("error", () => {});
      expect(await closedWithin(second, 2000)).toBe(true);
      expect(await closedWithin(first, 3000)).toBe(true); // never authenticated
    } finally {
      await limited.close();
    }
  });
});

describe("SSH limits across processes", () => {
  const saved = { url: process.env.REDIS_URL, prefix: process.env.REDIS_KEY_PREFIX };
  afterAll(async () => {
    await closeSharedSlots();
    for (const [k, v] of [["REDIS_URL", saved.url] as const, ["REDIS_KEY_PREFIX", saved.prefix] as const])
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  /** A raw connection to `port` and whether the server greeted it (its banner) before closing it. */
  async function connect(port: number): Promise<{ socket: net.Socket; greeted: boolean }> {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("error", () => {});
    const greeted = await new Promise<boolean>((r) => {
      socket.once("data", () => r(true));
      socket.once("close", () => r(false));
    });
    return { socket, greeted };
  }

  it("with REDIS_URL the per-address cap counts the connections of every server (process) together", async () => {
    process.env.REDIS_URL = process.env.TEST_REDIS_URL || "redis://127.0.0.1:6379";
    process.env.REDIS_KEY_PREFIX = `svctest${Math.random().toString(36).slice(2, 8)}`;
    const opts = {
      port: 0,
      host: "127.0.0.1",
      hostKeyDir: path.join(dir, "hostkeys"),
      limits: { maxPerAddress: 1, authTimeoutMs: 20_000 },
    };
    const [a, b] = await Promise.all([startSshServer(opts), startSshServer(opts)]);
    try {
      const first = await connect(a.port);
      expect(first.greeted).toBe(true);
      expect((await connect(b.port)).greeted).toBe(false); // the address's one connection is on the other server
      first.socket.destroy();
      // its shared slot is released once the server sees the close
      await expect.poll(async () => (await connect(b.port)).greeted, { timeout: 10_000 }).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("SSH behind a TCP load balancer (PROXY protocol)", () => {
  /** A balancer on loopback that sends `header` to svc's port, then relays both ways. */
  async function balancer(target: number, header: string): Promise<net.Server> {
    const relay = net.createServer((client) => {
      const upstream = net.connect(target, "127.0.0.1", () => {
        upstream.write(header);
        client.pipe(upstream).pipe(client);
      });
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((r) => relay.listen(0, "127.0.0.1", r));
    return relay;
  }
  /** Whether svc greets a raw connection that first sends `header` (false: it closed it). */
  async function greeted(port: number, header: string): Promise<{ socket: net.Socket; greeted: boolean }> {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(header));
    socket.on("error", () => {});
    const ok = await new Promise<boolean>((r) => {
      socket.once("data", () => r(true));
      socket.once("close", () => r(false));
    });
    return { socket, greeted: ok };
  }

  it("clones through the balancer, counts the per-address cap by the client it names, refuses a connection without a header", async () => {
    const behind = await startSshServer({
      port: 0,
      host: "127.0.0.1",
      hostKeyDir: path.join(dir, "hostkeys"),
      proxyProtocol: true,
      limits: { maxPerAddress: 1, authTimeoutMs: 5_000 },
    });
    const relay = await balancer(behind.port, "PROXY TCP4 203.0.113.7 127.0.0.1 40000 22\r\n");
    try {
      const relayPort = (relay.address() as net.AddressInfo).port;
      const target = path.join(dir, `clone-${++n}`);
      const env = { GIT_SSH_COMMAND: `ssh ${sshOpts(ownerKey).join(" ")} -p ${relayPort}`, GIT_TERMINAL_PROMPT: "0" };
      const cloned = await run("git", ["clone", "--quiet", `ssh://git@127.0.0.1:${relayPort}/${owner.username}/ssh-repo.git`, target], {
        env,
      });
      expect(cloned.code, cloned.stderr).toBe(0);
      // one connection per address: by the address in the header, not the balancer's (127.0.0.1)
      const a = await greeted(behind.port, "PROXY TCP4 203.0.113.8 127.0.0.1 40001 22\r\n");
      expect(a.greeted).toBe(true);
      expect((await greeted(behind.port, "PROXY TCP4 203.0.113.8 127.0.0.1 40002 22\r\n")).greeted).toBe(false);
      expect((await greeted(behind.port, "PROXY TCP4 203.0.113.9 127.0.0.1 40003 22\r\n")).greeted).toBe(true);
      expect((await greeted(behind.port, "SSH-2.0-OpenSSH_9.2\r\n")).greeted).toBe(false); // no header: closed
      a.socket.destroy();
    } finally {
      await new Promise((r) => relay.close(r));
      await behind.close();
    }
  });
});

describe("SSH metrics", () => {
  /** The svc_ssh_* samples now, keyed `name{label=value,…}`. */
  async function sshSamples(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    const key = (name: string, labels: object) =>
      `${name}{${Object.entries(labels)
        .map((l) => l.join("="))
        .join(",")}}`;
    for (const m of await metricsRegistry().getMetricsAsJSON())
      if (m.name.startsWith("svc_ssh_")) for (const v of m.values) out[key(m.name, v.labels)] = v.value;
    return out;
  }
  const grown = (now: Record<string, number>, before: Record<string, number>) =>
    Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]));

  it("counts connections, sign-ins (accepted and failed) and commands by outcome", async () => {
    // the earlier tests' connections have closed (the server sees a close a little after the client)
    await expect.poll(async () => (await sshSamples())["svc_ssh_connections_open{}"], { timeout: 10_000 }).toBe(0);
    const before = await sshSamples();
    expect((await clone(ownerKey, `${owner.username}/ssh-repo.git`)).result.code).toBe(0);
    expect((await run("ssh", ["-T", ...sshOpts(ownerKey), "-p", String(server.port), "git@127.0.0.1"])).code).toBe(1);
    expect((await clone(keygen("metrics-unknown"), `${owner.username}/ssh-repo.git`)).result.code).not.toBe(0);
    await expect
      .poll(async () => grown(await sshSamples(), before), { timeout: 10_000 })
      .toMatchObject({
        "svc_ssh_connections_total{result=accepted}": 3,
        "svc_ssh_connections_open{}": 0,
        "svc_ssh_authentications_total{result=accepted}": 2,
        "svc_ssh_authentications_total{result=failed}": 1,
        "svc_ssh_commands_total{command=upload-pack,result=ok}": 1,
        "svc_ssh_commands_total{command=refused,result=error}": 1,
      });
  });
});
