/**
 * What a killed git leaves (server/git/stale-locks.ts) when several svc processes, possibly on
 * other hosts, share the repositories: ages are measured on the filesystem's clock, never this
 * process's, and not against this process's start. The process's clock is set an hour ahead or
 * behind the filesystem's (Date.now stubbed before the module loads) and the lock files are
 * stamped as another process would leave them; a fresh module per test is a fresh process.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";

const tmp = mkdtempSync(path.join(os.tmpdir(), "svc-locks-"));
const realNow = Date.now.bind(Date);
const HOUR = 3_600_000;

afterEach(() => {
  vi.restoreAllMocks();
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A bare repository's directories. */
function repo(): string {
  const gitDir = path.join(tmp, `r${++n}.git`);
  mkdirSync(path.join(gitDir, "refs/heads"), { recursive: true });
  mkdirSync(path.join(gitDir, "objects"), { recursive: true });
  return gitDir;
}

/** `file` (made if missing) last modified `agoMs` before now on the filesystem's clock (this host's real clock). */
function stamp(file: string, agoMs: number): void {
  mkdirSync(path.dirname(file), { recursive: true });
  if (!existsSync(file)) writeFileSync(file, "");
  const t = new Date(realNow() - agoMs);
  utimesSync(file, t, t);
}

/** stale-locks.ts as a new process whose clock is `skewMs` off the filesystem's loads it. */
async function processWithClock(skewMs: number) {
  vi.spyOn(Date, "now").mockImplementation(() => realNow() + skewMs);
  vi.resetModules();
  return import("@/server/git/stale-locks");
}

describe("stale git leftovers with clocks that disagree", () => {
  it("keeps a lock another process took a moment ago, though this process's clock is an hour ahead", async () => {
    const { clearStaleGitLeftovers } = await processWithClock(HOUR);
    const gitDir = repo();
    stamp(path.join(gitDir, "refs/heads/main.lock"), 0);
    stamp(path.join(gitDir, "packed-refs.lock"), 2_000);
    expect(await clearStaleGitLeftovers(gitDir)).toEqual([]);
    expect(existsSync(path.join(gitDir, "refs/heads/main.lock"))).toBe(true);
    expect(existsSync(path.join(gitDir, "packed-refs.lock"))).toBe(true);
    expect(readdirSync(gitDir).filter((f) => f.startsWith("svc-clock-"))).toEqual([]); // the probe is gone
  });

  it("removes a lock left five minutes ago, though this process's clock is an hour behind", async () => {
    const { clearStaleGitLeftovers } = await processWithClock(-HOUR);
    const gitDir = repo();
    stamp(path.join(gitDir, "refs/heads/main.lock"), 5 * 60_000);
    stamp(path.join(gitDir, "HEAD.lock"), 5 * 60_000);
    expect((await clearStaleGitLeftovers(gitDir)).sort()).toEqual(["HEAD.lock", "refs/heads/main.lock"]);
    expect(existsSync(path.join(gitDir, "refs/heads/main.lock"))).toBe(false);
  });

  it("looks again after finding a lock too young to judge, and removes it once it is old", async () => {
    const { clearStaleGitLeftovers, LOCK_STALE_MS } = await processWithClock(0);
    const gitDir = repo();
    const lock = path.join(gitDir, "refs/heads/topic.lock");
    stamp(lock, 0);
    expect(await clearStaleGitLeftovers(gitDir)).toEqual([]);
    stamp(lock, LOCK_STALE_MS + 5_000); // as it is once that much time has passed
    expect(await clearStaleGitLeftovers(gitDir)).toEqual(["refs/heads/topic.lock"]);
  });

  it("finds a lock another process left after this one looked, on a push ten minutes later", async () => {
    const { clearStaleGitLeftovers } = await processWithClock(0);
    const gitDir = repo();
    expect(await clearStaleGitLeftovers(gitDir)).toEqual([]);
    stamp(path.join(gitDir, "refs/heads/main.lock"), 60_000);
    expect(await clearStaleGitLeftovers(gitDir)).toEqual([]); // looked at a moment ago
    const later = performance.now() + 10 * 60_000 + 1;
    vi.spyOn(performance, "now").mockReturnValue(later);
    expect(await clearStaleGitLeftovers(gitDir)).toEqual(["refs/heads/main.lock"]);
  });

  it("removes a quarantine idle longer than a live push can be, and keeps a younger one", async () => {
    const { clearStaleGitLeftovers } = await processWithClock(HOUR);
    const gitDir = repo();
    const idle = path.join(gitDir, "objects/tmp_objdir-incoming-Idle01");
    const live = path.join(gitDir, "objects/tmp_objdir-incoming-Live01");
    for (const [dir, ago] of [
      [idle, 20 * 60_000],
      [live, 5 * 60_000], // a push whose pre-receive hook has been running for five minutes
    ] as const) {
      stamp(path.join(dir, "pack/tmp_pack_x"), ago);
      stamp(path.join(dir, "pack"), ago);
      stamp(dir, ago);
    }
    expect(await clearStaleGitLeftovers(gitDir, 11 * 60_000)).toEqual(["objects/tmp_objdir-incoming-Idle01"]);
    expect(existsSync(live)).toBe(true);
  });
});
