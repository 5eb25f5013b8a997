/** Signals read back: one statement for a whole page, with the case each signal is linked to. */

import { toSignal } from '../../shared/signal-rows.js';
import type { SignalRecord } from '../../signal-records.js';
import type { Row, Sql } from '../db.js';

const SIGNAL_SELECT = 'SELECT s.*, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id';

/** The signals with these ids, in the order of `ids`; unknown ids skipped. */
export async function loadSignals(sql: Sql, ids: readonly number[]): Promise<SignalRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql(`${SIGNAL_SELECT} WHERE s.id = ANY($1::integer[])`, [ids]);
  const byId = new Map(rows.map((row) => [Number(row.id), toSignal(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The signals with these keys, by id; unknown keys skipped. */
export async function loadSignalsByKeys(sql: Sql, keys: readonly string[]): Promise<SignalRecord[]> {
  if (keys.length === 0) return [];
  return (await sql(`${SIGNAL_SELECT} WHERE s.key = ANY($1::text[]) ORDER BY s.id`, [keys])).map(toSignal);
}

/** The signals linked to these cases, with their relationship, by case then signal id. */
export async function loadCaseSignals(sql: Sql, caseIds: readonly number[]): Promise<Row[]> {
  return sql(
    `SELECT s.*, l.case_id, l.relationship FROM case_links l JOIN signals s ON s.id = l.signal_id
     WHERE l.case_id = ANY($1::integer[]) ORDER BY l.case_id, l.signal_id`,
    [caseIds],
  );
}
