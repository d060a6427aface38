/**
 * Reading values from raw SQL rows the same way on both providers. Drivers differ: PostgreSQL
 * returns Date and boolean; SQLite (better-sqlite3 with safe integers) returns ISO text or
 * "YYYY-MM-DD HH:MM:SS" (UTC), and 0/1 as number or bigint.
 */

/** An ISO string for a timestamp as the drivers return it (Date, epoch ms, ISO text, or SQLite's "YYYY-MM-DD HH:MM:SS" in UTC). */
export function isoOf(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v)).toISOString();
  const s = String(v);
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
