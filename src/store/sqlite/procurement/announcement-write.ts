/**
 * One announcement upserted by (source, source_id); a changed one keeps its id and gets its child rows rewritten.
 * An inserted or changed one appends an `announcement` journal entry.
 */
import { fold } from '../../../core/text-match.js';
import type { AnnouncementInput } from '../../procurement-records.js';
import { announcementFingerprint } from '../../shared/fingerprint.js';
import { searchText } from '../../shared/procurement-keys.js';
import { appendChange } from '../signals/journal.js';
import type { BatchContext } from './batch.js';
import type { Row } from './sql.js';

const COLUMNS = [
  'source',
  'source_id',
  'fingerprint',
  'published_on',
  'deadline_on',
  'buyer_nif',
  'buyer_name',
  'object',
  'base_price_eur',
  'contract_types',
  'procedure_type',
  'district',
  'link',
  'search_text',
  'imported_at',
] as const;
const INSERT = `INSERT INTO announcements (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`;
const UPDATE = `UPDATE announcements SET ${COLUMNS.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;
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
  const row = {
    source: input.source,
    source_id: input.source_id,
    fingerprint,
    published_on: input.published_on ?? '',
    deadline_on: input.deadline_on ?? null,
    buyer_nif: batch.entities.ensure(input.buyer),
    buyer_name: input.buyer.name.trim(),
    object: input.object,
    base_price_eur: input.base_price_eur ?? null,
    contract_types: JSON.stringify(input.contract_types),
    procedure_type: input.procedure_type ?? null,
    district: input.district ?? null,
    link: input.link ?? null,
    search_text: searchText(input.object),
    imported_at: input.imported_at,
  } satisfies Record<(typeof COLUMNS)[number], unknown>;

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
  // The districts it is in: the one it names and those of its municipalities, so a district filter is one index range.
  const districts = new Set(municipalityIds.flatMap((m) => batch.districtOf.get(m) ?? []));
  if (input.district) districts.add(fold(input.district.trim()));
  const addDistrict = sql(
    'INSERT INTO announcement_districts (announcement_id, district_key, published_on, deadline_on) VALUES (?, ?, ?, ?)',
  );
  for (const district of districts) addDistrict.run(id, district, row.published_on, row.deadline_on);
  sql('INSERT INTO announcements_fts (rowid, text) VALUES (?, ?)').run(id, row.search_text);
}
