/** Signals read back: one query for a whole page, with the case each signal is linked to (rows → records: shared/signal-rows.ts). */

import { toSignal } from '../../shared/signal-rows.js';
import type { SignalRecord } from '../../signal-records.js';
import { jsonList, type Row, type Sql } from '../procurement/sql.js';

/** Select list and FROM clause of a signal with its case (alias `s`). */
const SIGNAL_SELECT = 'SELECT s.*, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id';

/** The signals with these ids, in the order of `ids`; unknown ids skipped. */
export function loadSignals(sql: Sql, ids: readonly number[]): SignalRecord[] {
  if (ids.length === 0) return [];
  const rows = sql(`${SIGNAL_SELECT} WHERE s.id IN (SELECT value FROM json_each(@ids))`).all({ ids: jsonList(ids) }) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), toSignal(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The signals with these keys, by id; unknown keys skipped. */
export function loadSignalsByKeys(sql: Sql, keys: readonly string[]): SignalRecord[] {
  if (keys.length === 0) return [];
  const rows = sql(`${SIGNAL_SELECT} WHERE s.key IN (SELECT value FROM json_each(@keys)) ORDER BY s.id`).all({
    keys: jsonList(keys),
  }) as Row[];
  return rows.map(toSignal);
}

/** The signals linked to these cases, with their relationship, by case then signal id. */
export function loadCaseSignals(sql: Sql, caseIds: readonly number[]): Row[] {
  return sql(
    `SELECT s.*, l.case_id, l.relationship FROM case_links l INDEXED BY case_links_by_case JOIN signals s ON s.id = l.signal_id
     WHERE l.case_id IN (SELECT value FROM json_each(@ids)) ORDER BY l.case_id, l.signal_id`,
  ).all({ ids: jsonList(caseIds) }) as Row[];
}
