/**
 * One announcement upserted by (source, source_id); a changed one keeps its id and gets its child rows rewritten.
 * An inserted or changed one appends an `announcement` journal entry.
 */
import type { AnnouncementInput } from '../../procurement-records.js';
import { ANNOUNCEMENT_COLUMNS, announcementDistricts, announcementRow } from '../../shared/announcement-row.js';
import { announcementFingerprint } from '../../shared/fingerprint.js';
import { appendChange } from './append-change.js';
import type { BatchContext } from './batch.js';
import type { Row } from './sql.js';

const INSERT = `INSERT INTO announcements (${ANNOUNCEMENT_COLUMNS.join(', ')}) VALUES (${ANNOUNCEMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE = `UPDATE announcements SET ${ANNOUNCEMENT_COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;
const CHILD_TABLES = ['announcement_cpvs', 'announcement_municipalities', 'announcement_districts'];

export function writeAnnouncement(batch: BatchContext, input: AnnouncementInput): void {
  const { sql, summary } = batch;
  const fingerprint = announcementFingerprint(input);
  const old = sql('SELECT id, fingerprint FROM announcements WHERE source = ? AND source_id = ?').get(input.source, input.source_id) as
    | Row
    | undefined;
  if (old?.fingerprint === fingerprint) {
    summary.announcements.unchanged++;
    return;
  }
  const shared = announcementRow(input, fingerprint, batch.entities.ensure(input.buyer));
  // SQLite has no list columns: the contract types are JSON text.
  const row = { ...shared, contract_types: JSON.stringify(shared.contract_types) };

  let id: number;
  if (old) {
    id = Number(old.id);
    for (const table of CHILD_TABLES) sql(`DELETE FROM ${table} WHERE announcement_id = ?`).run(id);
    sql('DELETE FROM announcements_fts WHERE rowid = ?').run(id);
    sql(UPDATE).run({ ...row, id });
    summary.announcements.updated++;
  } else {
    id = Number(sql(INSERT).run(row).lastInsertRowid);
    summary.announcements.inserted++;
  }
  appendChange(sql, 'announcement', id, null, row.published_on);

  const addCpv = sql('INSERT INTO announcement_cpvs (announcement_id, position, cpv) VALUES (?, ?, ?)');
  for (const [position, cpv] of input.cpvs.entries()) addCpv.run(id, position, cpv);
  const municipalityIds = [...new Set(input.municipality_ids)];
  const addPlace = sql(
    'INSERT INTO announcement_municipalities (announcement_id, municipality_id, published_on, deadline_on) VALUES (?, ?, ?, ?)',
  );
  for (const municipalityId of municipalityIds) addPlace.run(id, municipalityId, row.published_on, row.deadline_on);
  const districts = announcementDistricts(input, municipalityIds, batch.districtOf);
  const addDistrict = sql(
    'INSERT INTO announcement_districts (announcement_id, district_key, published_on, deadline_on) VALUES (?, ?, ?, ?)',
  );
  for (const district of districts) addDistrict.run(id, district, row.published_on, row.deadline_on);
  sql('INSERT INTO announcements_fts (rowid, text) VALUES (?, ?)').run(id, row.search_text);
}
