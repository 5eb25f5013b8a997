/**
 * The submission periods of a source's notices published in a date range (Store.noticePeriods): the corpus that the
 * integrity check PT-R003-FENCE compares one procedure's period with. Grouped in SQL by what the check compares and
 * by the two dates, so the answer is at most one row per distinct notice shape, never a whole record; the days are
 * counted here, the same on both databases (dates are text).
 */
import { daysBetween } from '../../lib/calendar.js';
import type { NoticePeriodCount, NoticePeriodQuery } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function noticePeriods(port: SqlPort, query: NoticePeriodQuery): Promise<NoticePeriodCount[]> {
  // published_on '' (unknown) is below any bound; a notice without a deadline has no period.
  const rows = await port.query(
    `SELECT procedure_type, contract_types, published_on, deadline_on, count(*) AS n
       FROM announcements
      WHERE published_on >= $1 AND published_on <= $2 AND source = $3
        AND deadline_on IS NOT NULL AND deadline_on <> ''
      GROUP BY procedure_type, contract_types, published_on, deadline_on`,
    [query.from, query.to, query.source],
  );
  const counts = new Map<string, NoticePeriodCount>();
  for (const r of rows) {
    const procedure = r.procedure_type === null ? null : String(r.procedure_type);
    const types = port.dialect.columns.list(r.contract_types);
    const days = daysBetween(String(r.published_on), String(r.deadline_on));
    if (!Number.isFinite(days)) continue;
    const year = String(r.published_on).slice(0, 4);
    const key = JSON.stringify([procedure, types, days, year]);
    const known = counts.get(key);
    if (known) known.count += Number(r.n);
    else counts.set(key, { procedure_type: procedure, contract_types: types, days, year, count: Number(r.n) });
  }
  return [...counts.values()];
}
