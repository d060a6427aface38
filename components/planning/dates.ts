/** Date text for cycles. Cycles are whole UTC days (new-cycle.tsx), so dates are shown in UTC. */

/** "12 Nov" / "12 Nov 2027" (UTC): the year only when it is not the current one. */
export function cycleDay(iso: string, now = new Date()): string {
  const d = new Date(iso);
  const sameYear = d.getUTCFullYear() === now.getUTCFullYear();
  return d.toLocaleDateString("en-GB", { day: "numeric", month: "short", ...(sameYear ? {} : { year: "numeric" }), timeZone: "UTC" });
}

/** Whole days from `now` until `iso`, at least 0. */
export function daysLeft(iso: string, now = Date.now()): number {
  return Math.max(0, Math.ceil((new Date(iso).getTime() - now) / 86_400_000));
}
