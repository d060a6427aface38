/**
 * Reading values from raw SQL rows the same way on both providers. Drivers differ: PostgreSQL
 * returns Date and boolean; SQLite (better-sqlite3 with safe integers) returns ISO text or
 * "YYYY-MM-DD HH:MM:SS" (UTC), and 0/1 as number or bigint.
 */

/** A UTC timestamp as text: date, time, milliseconds (1–3 digits), then Z, +00:00, +00 or nothing. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,3}))?(?:Z|\+00(?::?00)?)?$/;

/** An ISO string for a timestamp as the drivers return it (Date, epoch ms, ISO text, or SQLite's "YYYY-MM-DD HH:MM:SS" in UTC). */
export function isoOf(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v)).toISOString();
  const s = String(v);
  // what the drivers return for Prisma's DateTime columns (SQLite "…T…+00:00", PostgreSQL
  // "… …[.fff]" in UTC) is rewritten without a Date: lists read 80+ of these per page
  const m = UTC_TEXT.exec(s);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? "").padEnd(3, "0")}Z`;
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s.replace(" ", "T")}Z`;
  return new Date(zoned).toISOString();
}

/** A Date for a raw timestamp, or null. */
export function dateOf(v: unknown): Date | null {
  return v === null || v === undefined ? null : new Date(isoOf(v));
}

/** A boolean for a raw boolean (true/false, 0/1, 0n/1n). */
export function boolOf(v: unknown): boolean {
  return typeof v === "boolean" ? v : Number(v) !== 0;
}
