/**
 * What contracts and announcements both hold beside their own row, read for a whole page in one statement each:
 * their CPV codes (in the record's order, with the vocabulary's labels) and the municipalities they are placed in
 * (by code). Grouped by the record's id.
 */
import { groupRows } from '../shared/row-values.js';
import type { Row, SqlPort } from '../sql/port.js';

type Owner = 'contract' | 'announcement';

export async function cpvsByRecord(port: SqlPort, owner: Owner, ids: readonly number[]): Promise<Map<number, Row[]>> {
  const rows = await port.query(
    `SELECT x.${owner}_id AS owner, x.cpv, v.label_pt, v.label_en
     FROM ${owner}_cpvs x LEFT JOIN cpvs v ON v.code = x.cpv
     WHERE ${port.dialect.inList(`x.${owner}_id`, '$1')} ORDER BY x.${owner}_id, x.position`,
    [ids],
  );
  return groupRows(rows, (r) => Number(r.owner));
}

export async function placesByRecord(port: SqlPort, owner: Owner, ids: readonly number[]): Promise<Map<number, Row[]>> {
  const rows = await port.query(
    `SELECT x.${owner}_id AS owner, m.code
     FROM ${owner}_municipalities x JOIN municipalities m ON m.id = x.municipality_id
     WHERE ${port.dialect.inList(`x.${owner}_id`, '$1')} ORDER BY x.${owner}_id, m.code`,
    [ids],
  );
  return groupRows(rows, (r) => Number(r.owner));
}
