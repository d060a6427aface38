/**
 * The push hook's Unix sockets when several svc processes share DATA_DIR
 * (server/http/git/push-hook.ts; docs/architecture.md "Several processes"): a process no longer
 * decides from a pid in a socket's name whether another process's socket is dead — that pid may
 * belong to another host or container, whose live socket it would delete. Sockets live in
 * per-process directories under TMPDIR (never DATA_DIR), and one is stale only when connecting to
 * it is refused.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { hookSocketBase, receivePackHook, removeStaleHookSockets } from "@/server/http/git/push-hook";

const base = mkdtempSync(path.join(os.tmpdir(), "svc-sock-"));
// this file's processes make their socket directories here (a host-local directory outside DATA_DIR)
const runDir = path.join(base, "run");
process.env.SVC_RUN_DIR = runDir;
const servers: net.Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  rmSync(base, { recursive: true, force: true });
});

/** A socket at `file` that this process listens on (as a live svc process would). */
function liveSocket(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const server = net.createServer((c) => c.end());
  servers.push(server);
  return new Promise((resolve) => server.listen(file, () => resolve()));
}

/** A socket at `file` whose process was killed with SIGKILL (the file stays, nobody listens). */
async function deadSocket(file: string): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const child = spawn(
    process.execPath,
    ["-e", `require("node:net").createServer().listen(${JSON.stringify(file)}, () => console.log("up"))`],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`listener exited (${code})`)));
  });
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await exited;
}

/** A pid no process of this host has (as a pid from another host or container looks). */
function foreignPid(): number {
  for (let pid = 999_999; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as { code?: string }).code === "ESRCH") return pid;
    }
  }
}

describe("push-hook sockets of several processes", () => {
  it("leaves a live socket in DATA_DIR named for a pid this host does not have, and makes its own under SVC_RUN_DIR", async () => {
    const theirs = path.join(getConfig().dataDir, "run", `hook-${foreignPid()}-deadbeef.sock`);
    await liveSocket(theirs);
    const hook = await receivePackHook("/nonexistent.git", false);
    hook.release();
    expect(existsSync(theirs)).toBe(true);
    const mine = hook.env.SVC_HOOK_SOCKET!;
    expect(hookSocketBase()).toBe(runDir);
    expect(path.dirname(path.dirname(mine))).toBe(runDir);
    expect(path.basename(path.dirname(mine))).toMatch(/^svc-hook-[A-Za-z0-9]{6}$/);
    expect(mine.startsWith(getConfig().dataDir)).toBe(false);
    // the hook can reach it
    await new Promise<void>((resolve, reject) => net.createConnection(mine, () => resolve()).once("error", reject));
  });

  it("removes the directories of sockets nobody listens on, and only those", async () => {
    const live = path.join(base, "svc-hook-Live01");
    const dead = path.join(base, "svc-hook-Dead01");
    const young = path.join(base, "svc-hook-Young1");
    const old = path.join(base, "svc-hook-Old001");
    const other = path.join(base, "not-svc");
    await liveSocket(path.join(live, "hook.sock"));
    await deadSocket(path.join(dead, "hook.sock"));
    await deadSocket(path.join(other, "hook.sock"));
    mkdirSync(young);
    mkdirSync(old);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(old, twoMinutesAgo, twoMinutesAgo); // made and never listened on: its process died at once

    expect((await removeStaleHookSockets(base)).sort()).toEqual([dead, old].sort());
    expect([live, young, other].every((d) => existsSync(d))).toBe(true);
    expect([dead, old].some((d) => existsSync(d))).toBe(false);
    // `keep` (the caller's own directory) is never removed
    await deadSocket(path.join(dead, "hook.sock"));
    expect(await removeStaleHookSockets(base, dead)).toEqual([]);
  });
});
