/**
 * Finds every string leaf of a procedure's input schemas (zod 4), with its path, so tests can check
 * each one refuses bad text (server/validation/strings.ts) and the property test can aim bad
 * strings at real string fields. Walks objects, arrays (index 0), optional/nullable/default
 * wrappers, unions, intersections, records' values and pipes (a transform's input side).
 */
import type { z } from "zod";
import { appRouter } from "@/server/api/root";

export interface StringLeaf {
  /** Object keys and 0 for array elements, e.g. ["filters", "labels", 0]. */
  path: (string | number)[];
  schema: z.ZodType;
}

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
};

const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The string leaves under `schema` (depth-limited against recursive schemas). */
export function stringLeaves(schema: z.ZodType, path: (string | number)[] = [], depth = 0): StringLeaf[] {
  if (depth > 12) return [];
  const def = defOf(schema);
  const next = (s: z.ZodType | undefined, p = path) => (s ? stringLeaves(s, p, depth + 1) : []);
  switch (def.type) {
    case "string":
      return [{ path, schema }];
    case "object":
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => next(v, [...path, k]));
    case "array":
      return next(def.element, [...path, 0]);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      return next(def.innerType);
    case "union":
      return (def.options ?? []).flatMap((o) => next(o));
    case "intersection":
      return [...next(def.left), ...next(def.right)];
    case "record":
      return next(def.valueType, [...path, "key"]);
    case "pipe":
      return next(def.in);
    case "lazy":
      return next(def.getter?.());
    default:
      return [];
  }
}

/** Every procedure path with the string leaves of all its input parsers. */
export function procedureStringLeaves(): { path: string; leaves: StringLeaf[] }[] {
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: z.ZodType[] } }> } })._def.procedures;
  return Object.entries(procedures).map(([path, p]) => ({ path, leaves: p._def.inputs.flatMap((i) => stringLeaves(i)) }));
}

/** `base` (an object) with `value` placed at `path`, creating objects and one-element arrays on the way. */
export function setAt(base: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  if (path.length === 0) return base;
  const build = (p: (string | number)[]): unknown =>
    p.length === 0 ? value : typeof p[0] === "number" ? [build(p.slice(1))] : { [p[0]]: build(p.slice(1)) };
  const [head, ...rest] = path;
  return { ...base, [head]: build(rest) };
}
