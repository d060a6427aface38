/**
 * The graceful stop of svc's server (scripts/server.mjs, docs/deploy.md "Stopping"), in a child
 * process (test/fixtures/graceful-server.ts: server.mjs's `listenAndServe` and `closeOnSignals`
 * with svc's routes and job worker on this file's database). On SIGTERM: the port is closed at once
 * while the process still finishes its work, a pull request's event stream ends cleanly (the
 * chunked body is terminated, not cut), a running request and a running job finish, and the
 * process exits 0. A request still running after SVC_SHUTDOWN_GRACE_MS is cut, and the process
 * still exits 0. Limits are generous; nothing asserts a duration.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "@/server/config";
import { closeJobs, enqueue, getJob } from "@/server/jobs";
import { member, remoteOf, seededWorkTree, startGitServer, type Member } from "./pulls-fixtures";
import { spawnServe, type ServeChild } from "../fixtures/spawn-serve";

const children: ServeChild[] = [];
let owner: Member;
let prId: string;

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false, limitMs = 30_000): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether a new TCP connection to `url`'s port is refused. */
function refused(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "ECONNREFUSED"));
  });
}

/** A streamed GET: `text` grows as chunks arrive; `ended` says whether the body ended cleanly or was cut. */
async function openStream(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  const stream = { res, text: "", ended: Promise.resolve<"clean" | "cut">("clean") };
  stream.ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) stream.text += decoder.decode(chunk, { stream: true });
      return "clean" as const;
    } catch {
      return "cut" as const; // undici: "terminated" when the connection closes inside the body
    }
  })();
  return stream;
}

/** `promise`'s value, or `late` when it takes longer than `limitMs`. */
async function within<T>(promise: Promise<T>, late: T, limitMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((r) => (timer = setTimeout(() => r(late), limitMs)));
  const v = await Promise.race([promise, timeout]);
  clearTimeout(timer);
  return v;
}

/** The child's exit code once it exited, or "still running" after `limitMs`. */
const exitOf = (child: ServeChild, limitMs = 60_000) => within(child.exited, "still running", limitMs);

beforeAll(async () => {
  const server = await startGitServer();
  try {
    owner = await member("stop");
    const repo = await owner.as.repos.create({ name: `st${Math.random().toString(36).slice(2, 8)}`, isPrivate: true });
    const wt = await seededWorkTree(remoteOf(server, owner.token, owner.user.username, repo.name));
    await wt.run("checkout", "--quiet", "-b", "topic");
    const head = await wt.commit("a.txt", "a\n");
    await wt.push("topic");
    const pr = await owner.as.pulls.create({
      repoId: repo.id,
      title: "Topic",
      sourceBranch: "topic",
      targetBranch: "main",
      headSha: head,
      baseSha: await wt.sha("main"),
    });
    prId = pr.id;
  } finally {
    await server.close();
  }
});

afterAll(async () => {
  for (const c of children) c.kill9(true);
  await closeJobs();
});

describe(`graceful stop on ${getConfig().provider}`, () => {
  it("SIGTERM: the port closes at once, event streams end cleanly, the running request and job finish, exit 0", async () => {
    const child = await spawnServe({}, 120_000, "graceful-server.ts");
    children.push(child);
    const jobId = await enqueue("test.held", {});
    await until("the job to run", async () => (await getJob("test.held", jobId!))?.state === "active", 60_000);

    const events = await openStream(`${child.url}/api/pulls/${prId}/events`, { authorization: `Bearer ${owner.token}` });
    expect(events.res.status).toBe(200);
    await until("the ready event", () => events.text.includes("event: ready"));
    const held = await openStream(`${child.url}/test/held`);
    await until("the held answer to start", () => held.text === "first\n");

    child.child.kill("SIGTERM");
    // the port is closed while the request and the job still keep the process running
    await until("new connections to be refused", () => refused(child.url));
    expect(await within(events.ended, "still open")).toBe("clean");
    expect(child.child.exitCode).toBeNull();

    child.send("release");
    expect(await within(held.ended, "still open")).toBe("clean");
    expect(held.text).toBe("first\nlast\n");
    // the running job still holds the stop
    expect(child.child.exitCode).toBeNull();
    child.send("finish-job");

    expect(await exitOf(child)).toBe("0");
    expect((await getJob("test.held", jobId!))?.state).toBe("completed");
  });

  it("a request still running after SVC_SHUTDOWN_GRACE_MS has its connection closed; the process exits 0", async () => {
    const child = await spawnServe({ SVC_SHUTDOWN_GRACE_MS: "300" }, 120_000, "graceful-server.ts");
    children.push(child);
    const held = await openStream(`${child.url}/test/held`);
    await until("the held answer to start", () => held.text === "first\n");

    child.child.kill("SIGTERM");
    expect(await exitOf(child)).toBe("0");
    expect(await within(held.ended, "still open")).toBe("cut");
    expect(child.stderr()).toMatch(/1 request\(s\) still running after 300 ms; closing their connections/);
  });
});
