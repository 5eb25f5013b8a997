/**
 * The contracts that carry a notice (Store.noticeContracts), with the notice's procedure type and contract types:
 * those of the notices with these ids, or those of a source's notices published in a year. Detection re-assesses
 * the submission-period checks of these contracts when a notice changes or when the fence of comparable notices
 * moves (docs/integrity.md, "Signals").
 */
import type { NoticeContract } from '../procurement-queries.js';
import type { SqlPort } from '../sql/port.js';

export async function noticeContracts(
  port: SqlPort,
  scope: { announcementIds: readonly number[] } | { source: string; year: string },
): Promise<NoticeContract[]> {
  // A contract carries the notice of its source whose number it gives (contract-rows.ts, `announcement_id`).
  const select = `SELECT c.id, a.procedure_type, a.contract_types
                    FROM contracts c JOIN announcements a
                      ON a.source = c.source AND a.source_id = c.announcement_number`;
  const rows =
    'announcementIds' in scope
      ? scope.announcementIds.length === 0
        ? []
        : await port.query(`${select} WHERE ${port.dialect.inList('a.id', '$1')} ORDER BY c.id`, [
            [...scope.announcementIds],
          ])
      : await port.query(
          `${select} WHERE a.source = $1 AND a.published_on >= $2 AND a.published_on <= $3 ORDER BY c.id`,
          [scope.source, `${scope.year}-01-01`, `${scope.year}-12-31`],
        );
  return rows.map((r) => ({
    contract_id: Number(r.id),
    procedure_type: r.procedure_type === null ? null : String(r.procedure_type),
    contract_types: port.dialect.columns.list(r.contract_types),
  }));
}
