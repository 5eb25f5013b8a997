/** Case events read back (rows → records: shared/case-rows.ts). */

import { toCaseEvent } from '../../shared/case-rows.js';
import type { CaseEventRecord } from '../../signal-records.js';
import { groupRows, jsonList, type Row, type Sql } from '../procurement/sql.js';

/** The events of these cases, oldest first, by case. */
export function loadCaseEvents(sql: Sql, caseIds: readonly number[]): Map<number, CaseEventRecord[]> {
  const rows = sql(
    `SELECT case_id, event_type, old_value, new_value, reason, created_at FROM case_events
     WHERE case_id IN (SELECT value FROM json_each(@ids)) ORDER BY case_id, id`,
  ).all({ ids: jsonList(caseIds) }) as Row[];
  return new Map([...groupRows(rows, (r) => Number(r.case_id))].map(([id, group]) => [id, group.map(toCaseEvent)]));
}
