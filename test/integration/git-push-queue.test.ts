/**
 * Pushes refused for load (docs/git-http.md "Limits"): git does not retry a 503, so a client's
 * pushes wait in a queue of their own, larger than its fetches' and for longer
 * (`maxQueuedPushesPerClient`, `pushQueueWaitMs`). One user's concurrent pushes with room for one
 * git process and one queued fetch per client all land; a fetch beyond that queue is still 503 at
 * once. End to end with the git CLI against handleGitHttp on startServer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { handleGitHttp } from "@/server/http/git/smart-http";
import { resetGitHttpLimits, setGitHttpLimits } from "@/server/http/git/http-limits";
import { gitClient } from "../fixtures/clients";
import { actorOf, callerFor, makeToken, makeUser, startServer } from "../helpers";

const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "svc-push-queue-"));
const home = path.join(tmpRoot, "home");
const git = (args: string[], cwd = tmpRoot) => gitClient(["-c", "credential.helper=", ...args], { cwd, home });

describe("concurrent pushes of one user", () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let url: string;
  let work: string;

  beforeAll(async () => {
    server = await startServer({ git: handleGitHttp });
    const owner = await makeUser("pushq");
    const token = await makeToken(owner);
    await (await callerFor(actorOf(owner))).repos.create({ name: "queue", isPrivate: true });
    url = `http://git:${token}@${new URL(server.url).host}/${owner.username}/queue.git`;
    work = path.join(tmpRoot, "work");
    expect((await git(["init", "--quiet", "--initial-branch=main", work])).code).toBe(0);
    writeFileSync(path.join(work, "a.txt"), "a\n");
    expect((await git(["add", "."], work)).code).toBe(0);
    expect((await git(["commit", "--quiet", "-m", "first"], work)).code).toBe(0);
  }, 120_000);
  afterEach(() => resetGitHttpLimits());
  afterAll(async () => {
    await server.close();
    rmSync(tmpRoot, { recursive: true, force: true });
  });

  it("eight at once with one process and one queued request per client all land (pushes queue apart, and longer)", async () => {
    setGitHttpLimits({
      maxPerClient: 1,
      maxQueuedPerClient: 1,
      queueWaitMs: 1_000,
      maxQueuedPushesPerClient: 16,
      pushQueueWaitMs: 120_000,
    });
    const pushes = await Promise.all(Array.from({ length: 8 }, (_, i) => git(["push", "--quiet", url, `main:refs/heads/b${i}`], work)));
    expect(pushes.map((p) => (p.code === 0 ? "ok" : p.stderr.trim()))).toEqual(Array(8).fill("ok"));
    const refs = await git(["ls-remote", "--heads", url]);
    expect(refs.stdout.trim().split("\n")).toHaveLength(8);
  });
});
