/**
 * Signals read back: one statement for a whole page, with the case each signal is linked to (rows → records:
 * shared/signal-rows.ts).
 */

import type { RecordCodec } from '../shared/record-codec.js';
import { inIdOrder } from '../shared/row-values.js';
import { CASE_SIGNAL, MATCHABLE_SIGNAL, SIGNAL } from '../shared/signal-rows.js';
import type { MatchableSignal, SignalRecord } from '../signal-records.js';
import type { Row, SqlPort } from '../sql/port.js';
import { qualified } from '../sql/statements.js';

/** A signal with the case it is linked to (alias `s`), from its table. */
const WITH_CASE = 'FROM signals s LEFT JOIN case_links l ON l.signal_id = s.id';
/** Select list and FROM clause of a signal with its case. */
const SIGNAL_SELECT = `SELECT s.*, l.case_id ${WITH_CASE}`;

/** The signals with these ids, in the order of `ids`; unknown ids skipped. */
export function loadSignals(port: SqlPort, ids: readonly number[]): Promise<SignalRecord[]> {
  return loadById(port, ids, SIGNAL_SELECT, SIGNAL);
}

/** The same as the alert matcher reads them (MATCHABLE_SIGNAL): not the texts that fill the row. */
export function loadMatchableSignals(port: SqlPort, ids: readonly number[]): Promise<MatchableSignal[]> {
  const columns = qualified('s', MATCHABLE_SIGNAL.except('case_id'));
  return loadById(port, ids, `SELECT ${columns}, l.case_id ${WITH_CASE}`, MATCHABLE_SIGNAL);
}

async function loadById<R>(port: SqlPort, ids: readonly number[], select: string, codec: RecordCodec<R>): Promise<R[]> {
  if (ids.length === 0) return [];
  const rows = await port.query(`${select} WHERE ${port.dialect.inList('s.id', '$1')}`, [ids]);
  return inIdOrder(ids, rows, codec.reader(port));
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
