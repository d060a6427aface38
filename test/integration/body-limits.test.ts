/**
 * Request body caps (docs/api.md "Limits (request bodies, batches, blobs)") over real HTTP
 * (startServer): tRPC and /api/tokens refuse bodies over 1 MiB with 413 — before reading them when
 * Content-Length says so, as soon as the count passes 1 MiB when the body is chunked — and still
 * accept a 900 KiB body; a 300 MB anonymous sign-up leaves memory flat; tRPC batches are capped at
 * 10 calls. next-auth's POST route is called directly (it needs Next's request scope past the cap,
 * so NextAuth is mocked).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import http from "node:http";
import { MAX_BODY_BYTES } from "@/server/http/body-limit";
import { MAX_BATCH_SIZE } from "@/server/http/trpc";
import type { Profile } from "@/server/services/users/profile";
import { makeToken, makeUser, serviceToken, startServer } from "../helpers";
import { peakRssGrowth } from "../big-blob";

const seen: Request[] = [];
vi.mock("next-auth", () => ({
  default: async (req: Request) => {
    seen.push(req);
    return new Response("next-auth ran", { status: 200 });
  },
}));

const KIB = 1024;
const MIB = 1024 * KIB;
const CHUNK = Buffer.alloc(64 * KIB, " ");

let server: { url: string; close: () => Promise<void> };
let user: Profile;
let pat: string;

beforeAll(async () => {
  server = await startServer();
  user = await makeUser("bodies");
  pat = await makeToken(user, ["repo:read", "repo:write"]);
});
afterAll(() => server.close());

interface Answer {
  status: number;
  body: string;
  /** Body bytes the client had written when the answer came. */
  sent: number;
}

/**
 * POSTs with node:http, writing `body` lazily (chunk by chunk, waiting for the socket) and
 * stopping as soon as the server answers: the server may refuse a body it has not read.
 * `end` false never finishes the body (the server must answer without it).
 */
function post(
  path: string,
  headers: Record<string, string>,
  body: Iterable<Buffer>,
  opts: { end?: boolean; agent?: http.Agent } = {},
): Promise<Answer & { reusedSocket: boolean }> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const req = http.request(`${server.url}${path}`, { method: "POST", headers, agent: opts.agent ?? false });
    const writable = () =>
      new Promise<void>((r) => {
        const done = () => {
          for (const event of ["drain", "response", "close"]) req.off(event, done);
          r();
        };
        for (const event of ["drain", "response", "close"]) req.on(event, done);
      });
    req.on("response", (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8"), sent, reusedSocket: req.reusedSocket });
        if (!opts.agent) req.destroy();
      });
    });
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    void (async () => {
      for (const chunk of body) {
        if (answered || req.destroyed) return;
        sent += chunk.length;
        if (!req.write(chunk)) await writable();
      }
      if (opts.end !== false && !answered) req.end();
    })();
  });
}

/** `bytes` bytes of spaces in 64 KiB chunks, made on demand (nothing is kept). */
function* spaces(bytes: number): Generator<Buffer> {
  for (let left = bytes; left > 0; left -= CHUNK.length) yield left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
}

/** A JSON body `json` padded with whitespace after it to exactly `bytes` bytes. */
function* padded(json: unknown, bytes: number): Generator<Buffer> {
  const head = Buffer.from(JSON.stringify(json));
  yield head;
  yield* spaces(bytes - head.length);
}

const JSON_TYPE = { "content-type": "application/json" };

describe("tRPC", () => {
  it("answers 413 to a declared 2 MiB body before it is sent, in tRPC's error shape", async () => {
    const r = await post(
      "/api/trpc/repos.create",
      { ...JSON_TYPE, authorization: `Bearer ${pat}`, "content-length": String(2 * MIB) },
      [Buffer.from('{"name":"')],
      { end: false },
    );
    expect(r.status).toBe(413);
    const body = JSON.parse(r.body);
    expect(body.error.data).toMatchObject({ code: "PAYLOAD_TOO_LARGE", httpStatus: 413, path: "repos.create" });
    expect(body.error.message).toContain("1 MiB");
    const anon = await post("/trpc/users.signUp", { ...JSON_TYPE, "content-length": String(300 * 1000 * 1000) }, [Buffer.from("{")], {
      end: false,
    });
    expect(anon.status).toBe(413);
  });

  it("answers 413 to a chunked body once it passes 1 MiB, without reading the rest", async () => {
    const r = await post("/api/trpc/repos.create", { ...JSON_TYPE, authorization: `Bearer ${pat}` }, padded({ name: "chunked" }, 2 * MIB));
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body).error.data.code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("keeps a keep-alive connection usable after refusing a chunked body", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const auth = { ...JSON_TYPE, authorization: `Bearer ${pat}` };
      const refused = await post("/api/trpc/repos.create", auth, padded({ name: "kept" }, 2 * MIB), { agent });
      expect(refused.status).toBe(413);
      const next = await post("/api/trpc/repos.create", auth, padded({ name: `kept${Date.now()}` }, 100), { agent });
      expect(next.status, next.body).toBe(200);
      expect(next.reusedSocket).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it("accepts a 900 KiB body", async () => {
    const name = `padded${Date.now()}`;
    const bytes = 900 * KIB;
    const variants: Record<string, string>[] = [{ "content-length": String(bytes) }, {}];
    for (const headers of variants) {
      const r = await post(
        "/api/trpc/repos.create",
        { ...JSON_TYPE, authorization: `Bearer ${pat}`, ...headers },
        padded({ name: `${name}${Object.keys(headers).length}` }, bytes),
      );
      expect(r.status, r.body).toBe(200);
      expect(JSON.parse(r.body).result.data.name).toBe(`${name}${Object.keys(headers).length}`);
    }
  });

  it("refuses a 300 MB anonymous sign-up with 413 and keeps memory flat", async () => {
    const { result, growth } = await peakRssGrowth(() =>
      post("/api/trpc/users.signUp", JSON_TYPE, padded({ username: "huge", password: "password123" }, 300 * 1000 * 1000)),
    );
    expect(result.status).toBe(413);
    expect(result.sent).toBeLessThan(300 * 1000 * 1000); // the answer came long before the end
    console.log(
      `body-limits: 300 MB sign-up refused after ${(result.sent / MIB).toFixed(1)} MiB sent; peak RSS growth ${(growth / MIB).toFixed(1)} MiB`,
    );
    expect(growth).toBeLessThan(50 * 1000 * 1000);
  });

  it(`runs batches of up to ${MAX_BATCH_SIZE} calls and refuses larger ones with 400`, async () => {
    const batch = (n: number) =>
      fetch(`${server.url}/api/trpc/${Array(n).fill("repos.list").join(",")}?batch=1&input=${encodeURIComponent("{}")}`);
    const ok = await batch(MAX_BATCH_SIZE);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toHaveLength(MAX_BATCH_SIZE);
    const refused = await batch(MAX_BATCH_SIZE + 1);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain("Batch call exceeds maximum size");
  });
});

describe("/api/tokens", () => {
  it("answers 413 {error: {code: PAYLOAD_TOO_LARGE}} to declared and chunked bodies over 1 MiB, and accepts 900 KiB", async () => {
    const auth = { ...JSON_TYPE, authorization: `Bearer ${await serviceToken(user)}` };
    const declared = await post("/api/tokens", { ...auth, "content-length": String(MAX_BODY_BYTES + 1) }, [Buffer.from("{")], {
      end: false,
    });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    const chunked = await post("/api/tokens", auth, padded({ name: "big" }, 2 * MIB));
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body).error.code).toBe("PAYLOAD_TOO_LARGE");
    const fine = await post("/api/tokens", auth, padded({ name: "fine" }, 900 * KIB));
    expect(fine.status, fine.body).toBe(201);
    expect(JSON.parse(fine.body).name).toBe("fine");
  });
});

describe("next-auth POST", () => {
  const ctx = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
  const url = "http://svc.test/api/auth/callback/credentials";
  const form = { "content-type": "application/x-www-form-urlencoded" };

  it("answers 413 to bodies over 1 MiB, declared or streamed, before next-auth runs", async () => {
    const { POST } = await import("@/app/api/auth/[...nextauth]/route");
    seen.length = 0;
    const declared = await POST(
      new Request(url, { method: "POST", headers: { ...form, "content-length": String(2 * MIB) }, body: "username=a" }),
      ctx,
    );
    expect(declared.status).toBe(413);
    expect((await declared.json()).error.code).toBe("PAYLOAD_TOO_LARGE");
    const source = spaces(2 * MIB);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
    const streamed = await POST(new Request(url, { method: "POST", headers: form, body: stream, duplex: "half" } as RequestInit), ctx);
    expect(streamed.status).toBe(413);
    expect(seen).toHaveLength(0);
  });

  it("hands next-auth a NextRequest with the same URL, headers and body", async () => {
    const { POST } = await import("@/app/api/auth/[...nextauth]/route");
    seen.length = 0;
    const body = "username=alice&password=secret&csrfToken=x";
    const res = await POST(new Request(url, { method: "POST", headers: { ...form, cookie: "a=b" }, body }), ctx);
    expect(res.status).toBe(200);
    expect(seen).toHaveLength(1);
    const req = seen[0] as Request & { nextUrl?: URL };
    expect(req.nextUrl?.pathname).toBe("/api/auth/callback/credentials");
    expect(req.headers.get("cookie")).toBe("a=b");
    expect(await req.text()).toBe(body);
  });
});
