/**
 * The tRPC HTTP handler for both mount points: /api/trpc/<path> and the spec's /trpc/<path>
 * (a rewrite in next.config.mjs). Next hands a rewritten request to the route with its original
 * URL, so the endpoint prefix is taken from the URL actually received.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";

export function handleTrpc(req: Request): Promise<Response> {
  const endpoint = new URL(req.url).pathname.startsWith("/trpc/") ? "/trpc" : "/api/trpc";
  return fetchRequestHandler({ endpoint, req, router: appRouter, createContext });
}
