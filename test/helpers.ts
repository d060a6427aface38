/** Shared fixtures for integration tests: users, tokens, callers and a real HTTP server. */
import { pullEvents } from "@/server/http/pull-events";
import { agentStream } from "@/server/http/agent-stream";
import http from "node:http";
import { Readable } from "node:stream";
import type { AddressInfo } from "node:net";
import { encode } from "next-auth/jwt";
import { getDb } from "@/server/db";
import { getAuthSecret } from "@/server/config";
import { type Profile } from "@/server/services/users/profile";
import { signUp } from "@/server/services/users/sign-up";
import { createToken } from "@/server/services/tokens/manage-tokens";
import { startSession } from "@/server/services/users/sessions";
import { SCOPES, type Scope } from "@/server/auth/scopes";
import type { Actor } from "@/server/auth/actor";
import { createCaller } from "@/server/api/root";
import { contextFor } from "@/server/api/trpc";
import { handleTrpc } from "@/server/http/trpc";
import { deleteToken, getTokens, postTokens } from "@/server/http/tokens";
import { handleRestV3 } from "@/server/http/rest-v3/handler";
import { getMetrics } from "@/server/http/metrics";
import { postHighlight } from "@/server/http/highlight";
import { getHealth, getReady } from "@/server/http/health";

let counter = 0;

/** A new user with password "password123". */
export async function makeUser(prefix = "user"): Promise<Profile> {
  counter += 1;
  return signUp(await getDb(), { username: `${prefix}${counter}${Math.random().toString(36).slice(2, 6)}`, password: "password123" });
}

/** An actor for `user`: a session (every scope) or a PAT with `scopes`. */
export function actorOf(user: Profile, scopes?: readonly Scope[]): Actor {
  return { user: { ...user, isAdmin: false }, via: scopes ? "pat" : "session", scopes: scopes ?? SCOPES };
}

/** A tRPC caller through the real router and middleware. */
export async function callerFor(actor: Actor | null) {
  return createCaller(await contextFor(actor));
}

/** A PAT secret for `user`. */
export async function makeToken(user: Profile, scopes: Scope[] = ["repo:read", "repo:write"], expiresInDays?: number): Promise<string> {
  return (await createToken(await getDb(), user.id, { name: "test", scopes, expiresInDays })).token;
}

/** A service token (next-auth session JWT) for `user`, backed by a new session row as a sign-in makes. */
export async function serviceToken(user: Profile): Promise<string> {
  const sid = await startSession(await getDb(), user.id, "test");
  return encode({ token: { sub: user.id, name: user.username, sid }, secret: getAuthSecret() });
}

type Handler = (req: Request) => Promise<Response>;

/**
 * Serves svc's HTTP endpoints (tRPC, /api/tokens, /api/metrics, git smart HTTP when `git` is given) on
 * 127.0.0.1 with real streaming, like the Next routes do. Returns the base URL and a closer.
 */
export async function startServer(
  extra: { git?: (req: Request, owner: string, repo: string, rest: string) => Promise<Response> } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const route = (req: Request): Promise<Response> => {
    const { pathname } = new URL(req.url);
    if (pathname.startsWith("/api/trpc/") || pathname.startsWith("/trpc/")) return handleTrpc(req);
    if (pathname === "/api/tokens") return (req.method === "POST" ? postTokens : getTokens)(req);
    const del = /^\/api\/tokens\/([^/]+)$/.exec(pathname);
    if (del && req.method === "DELETE") return deleteToken(req, del[1]);
    if (pathname === "/api/agent/stream" && req.method === "POST") return agentStream(req);
    if (pathname === "/api/metrics" && req.method === "GET") return getMetrics(req);
    if (pathname === "/api/highlight" && req.method === "POST") return postHighlight(req);
    if (pathname === "/api/health" && req.method === "GET") return Promise.resolve(getHealth());
    if (pathname === "/api/ready" && req.method === "GET") return getReady();
    const events = /^\/api\/pulls\/([^/]+)\/events$/.exec(pathname);
    if (events && req.method === "GET") return pullEvents(req, events[1]);
    if (pathname.startsWith("/api/v3/")) return handleRestV3(req);
    const g = /^\/([^/]+)\/([^/]+)\.git\/(.*)$/.exec(pathname);
    if (g && extra.git) return extra.git(req, g[1], g[2], g[3]);
    return Promise.resolve(new Response("not found", { status: 404 }));
  };
  const server = http.createServer((nreq, nres) => void nodeHandler(route)(nreq, nres));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * A node:http handler that answers with `route` as Next's route handlers do: the request as a Web
 * Request whose signal aborts when the client goes away before the answer is finished, the answer's
 * body streamed. A throw from `route` is logged and answered 500.
 */
export function nodeHandler(route: Handler): (nreq: http.IncomingMessage, nres: http.ServerResponse) => Promise<void> {
  return async (nreq, nres) => {
    try {
      const url = `http://${nreq.headers.host}${nreq.url}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(nreq.headers)) if (typeof v === "string") headers.set(k, v);
      const hasBody = nreq.method !== "GET" && nreq.method !== "HEAD";
      // As Next does (signalFromNodeResponse): a client that goes away before the response is finished aborts req.signal.
      const aborter = new AbortController();
      nres.once("close", () => {
        if (!nres.writableFinished) aborter.abort(new Error("client disconnected"));
      });
      const req = new Request(url, {
        method: nreq.method,
        headers,
        body: hasBody ? (Readable.toWeb(nreq) as ReadableStream) : undefined,
        duplex: "half",
        signal: aborter.signal,
      } as RequestInit);
      const res = await route(req);
      nres.writeHead(res.status, Object.fromEntries(res.headers));
      if (res.body) Readable.fromWeb(res.body as never).pipe(nres);
      else nres.end();
    } catch (e) {
      console.error(e);
      nres.writeHead(500).end();
    }
  };
}
