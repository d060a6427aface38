/**
 * The current actor and a tRPC server caller for React server components. Server components never
 * call the API over HTTP: they build the same context the HTTP handler builds, from the request's
 * cookies, and call the app router directly (docs/ui.md "Data flow").
 */
// Reads the request's cookies (next/headers): only React server components and route handlers may import it.
import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { resolveActor, type Actor } from "@/server/auth/actor";
import { contextFor } from "@/server/api/trpc";
import { createCaller } from "@/server/api/root";

/**
 * The signed-in user of the current request (browser session cookie), or null. A stale or
 * unreadable cookie counts as signed out. Memoized per request.
 */
export const getCurrentActor = cache(async (): Promise<Actor | null> => {
  const jar = await cookies();
  const header = jar
    .getAll()
    .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
    .join("; ");
  if (!header) return null;
  try {
    return await resolveActor({ headers: new Headers({ cookie: header }) });
  } catch {
    return null;
  }
});

/** A tRPC caller acting as the current user (anonymous when signed out). Memoized per request. */
export const getServerCaller = cache(async () => createCaller(await contextFor(await getCurrentActor())));
