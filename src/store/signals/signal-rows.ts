/**
 * Signals read back: one statement for a whole page, with the case each signal is linked to (rows → records:
 * shared/signal-rows.ts).
 */

import { inIdOrder } from '../shared/row-values.js';
import { CASE_SIGNAL, MATCHABLE_SIGNAL, SIGNAL } from '../shared/signal-rows.js';
import type { MatchableSignal, SignalRecord } from '../signal-records.js';
import type { Row, SqlPort } from '../sql/port.js';
import { qualified } from '../sql/statements.js';

/** Select list and FROM clause of a signal with its case (alias `s`). */
const SIGNAL_SELECT = 'SELECT s.*, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id';

/** The signals with these ids, in the order of `ids`; unknown ids skipped. */
export async function loadSignals(port: SqlPort, ids: readonly number[]): Promise<SignalRecord[]> {
  if (ids.length === 0) return [];
  const rows = await port.query(`${SIGNAL_SELECT} WHERE ${port.dialect.inList('s.id', '$1')}`, [ids]);
  return inIdOrder(ids, rows, SIGNAL.reader(port));
}

/** The signals with these ids as the alert matcher reads them (MATCHABLE_SIGNAL), in the order of `ids`. */
export async function loadMatchableSignals(port: SqlPort, ids: readonly number[]): Promise<MatchableSignal[]> {
  if (ids.length === 0) return [];
  const columns = qualified(
    's',
    MATCHABLE_SIGNAL.columns.filter((c) => c !== 'case_id'),
  );
  const rows = await port.query(
    `SELECT ${columns}, l.case_id FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id
     WHERE ${port.dialect.inList('s.id', '$1')}`,
    [ids],
  );
  return inIdOrder(ids, rows, MATCHABLE_SIGNAL.reader(port));
}

/** The signals with these keys, by id; unknown keys skipped. */
export async function loadSignalsByKeys(port: SqlPort, keys: readonly string[]): Promise<SignalRecord[]> {
  if (keys.length === 0) return [];
  return SIGNAL.all(port, `${SIGNAL_SELECT} WHERE ${port.dialect.inList('s.key', '$1')} ORDER BY s.id`, [keys]);
}

/** The signals linked to these cases (CASE_SIGNAL's columns), with their relationship, by case then signal id. */
export function loadCaseSignals(port: SqlPort, caseIds: readonly number[]): Promise<Row[]> {
  return port.query(
    `SELECT ${qualified('s', CASE_SIGNAL.columns)}, l.case_id, l.relationship
     FROM ${port.dialect.indexed('case_links', 'l', 'case_links_by_case')}
     JOIN signals s ON s.id = l.signal_id WHERE ${port.dialect.inList('l.case_id', '$1')}
     ORDER BY l.case_id, l.signal_id`,
    [caseIds],
  );
}
