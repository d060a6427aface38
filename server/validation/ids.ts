/**
 * Identifier inputs, the one definition of each for every input schema: row ids (UUIDs) and git
 * object ids (lib/sha.ts: 40 or 64 hex digits). Built on `line` (strings.ts), so they refuse what
 * every single-line input refuses, with messages naming the field.
 */
import type { z } from "zod";
import { SHA_RE } from "@/lib/sha";
import { line } from "./strings";

/**
 * A row id named `field`: 400 "<field> must be <what>" unless it is a UUID (`what`: e.g. "a
 * repository UUID"); `typeError` as `line`'s (the message for a missing or non-string value).
 */
export function uuid(field: string, what = "a UUID", typeError?: string): z.ZodString {
  return line(field, typeError).uuid(`${field} must be ${what}`);
}

/** A full git object id named `field` (lower-case hex, SHA-1 or SHA-256): 400 "<field> must be <what> (40 or 64 hex digits)" otherwise. */
export function objectId(field: string, what = "a full commit sha"): z.ZodString {
  return line(field).regex(SHA_RE, `${field} must be ${what} (40 or 64 hex digits)`);
}
