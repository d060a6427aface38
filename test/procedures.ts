/**
 * Walks the app router for the router-wide tests: every procedure path, its tier (from meta) and
 * a way to call it by path through a real caller.
 */
import { TRPCError } from "@trpc/server";
import { appRouter } from "@/server/api/root";
import type { Tier } from "@/server/api/trpc";

export interface ProcedureInfo {
  path: string;
  type: "query" | "mutation" | "subscription";
  tier: Tier | undefined;
}

export function allProcedures(): ProcedureInfo[] {
  const procedures = (
    appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: ProcedureInfo["type"]; meta?: { tier?: Tier } } }> } }
  )._def.procedures;
  return Object.entries(procedures).map(([path, p]) => ({ path, type: p._def.type, tier: p._def.meta?.tier }));
}

/** Calls `path` on a caller; subscriptions are started and their first value awaited. */
export async function callPath(caller: unknown, path: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const part of path.split(".")) target = (target as Record<string, unknown>)[part];
  const result = await (target as (i: unknown) => Promise<unknown>)(input);
  if (result && typeof (result as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    const it = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
    const first = await it.next();
    await it.return?.();
    return first.value;
  }
  return result;
}

/** The TRPCError code a call failed with, or "OK". */
export async function outcome(caller: unknown, path: string, input: unknown): Promise<string> {
  try {
    await callPath(caller, path, input);
    return "OK";
  } catch (e) {
    if (e instanceof TRPCError) return e.code;
    throw e;
  }
}
