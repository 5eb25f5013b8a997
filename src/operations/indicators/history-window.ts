/**
 * The earliest reference date a plan's `history_years` lets a caller see: the same calendar day, that many
 * years ago (undefined: no limit). Year 2021 (2021-12-31) is inside a 5-year window on 2026-11-21.
 */
export function historyWindowStart(now: Date, historyYears: number | null): string | undefined {
  if (historyYears === null) return undefined;
  const start = new Date(now);
  start.setUTCFullYear(start.getUTCFullYear() - historyYears);
  return start.toISOString().slice(0, 10);
}
