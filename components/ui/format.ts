/** Display helpers shared by server and client components. */

/** "3 minutes ago", "in 5 days", "just now" relative to `now`. */
export function relativeTime(iso: string | Date, now = Date.now()): string {
  const t = typeof iso === "string" ? Date.parse(iso) : iso.getTime();
  if (Number.isNaN(t)) return "";
  const diff = t - now;
  const abs = Math.abs(diff);
  const units: [number, Intl.RelativeTimeFormatUnit][] = [
    [365 * 86_400_000, "year"],
    [30 * 86_400_000, "month"],
    [7 * 86_400_000, "week"],
    [86_400_000, "day"],
    [3_600_000, "hour"],
    [60_000, "minute"],
  ];
  if (abs < 45_000) return "just now";
  const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  for (const [ms, unit] of units) {
    if (abs >= ms || unit === "minute") return rtf.format(Math.round(diff / ms), unit);
  }
  return "";
}

/** "12 May 2026" */
export function shortDate(iso: string | Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** "2026-05-12 14:03 UTC" (for title attributes). */
export function fullDate(iso: string | Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return "";
  return d.toISOString().replace("T", " ").slice(0, 16) + " UTC";
}

/** "1.2 KB", "3.4 MB", "512 Bytes" */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? "Byte" : "Bytes"}`;
  const units = ["KB", "MB", "GB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

/**
 * `text` as a sentence: its first letter upper-case ("the merge has conflicts" → "The merge has
 * conflicts"); the rest untouched. The API's messages are lower-case clauses (they are also
 * joined into longer ones); the UI shows them as sentences.
 */
export function sentence(text: string): string {
  return text.replace(/^(\s*)(\p{Ll})/u, (_, space: string, first: string) => space + first.toUpperCase());
}
