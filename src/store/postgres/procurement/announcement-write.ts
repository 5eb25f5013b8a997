/**
 * Announcements upserted by (source, source_id), as in the SQLite store: a changed one keeps its id and gets its
 * child rows (CPVs, municipalities, districts) rewritten.
 */

import type { Change } from '../../journal/journal.js';
import type { AnnouncementInput } from '../../procurement-records.js';
import { ANNOUNCEMENT_COLUMNS, announcementDistricts, announcementRow } from '../../shared/announcement-row.js';
import { announcementFingerprint } from '../../shared/fingerprint.js';
import { type CopyValue, copyRows, upsertRows } from '../copy.js';
import { allocateIds, type BatchContext, sourceKey, storedBySourceKey } from './batch.js';

const CHILD_TABLES = ['announcement_cpvs', 'announcement_municipalities', 'announcement_districts'];

interface Pending {
  id: number | undefined;
  row: ReturnType<typeof announcementRow>;
  cpvs: string[];
  municipalityIds: number[];
  districts: Set<string>;
}

/** Decides what each announcement of the batch does; returns the write (giving its journal entries), to run once the entities are written. */
export async function planAnnouncements(batch: BatchContext, inputs: readonly AnnouncementInput[]): Promise<() => Promise<Change[]>> {
  const { sql, summary } = batch;
  const current = new Map<string, { id: number | undefined; fingerprint: string }>(await storedBySourceKey(sql, 'announcements', inputs));
  const pending = new Map<string, Pending>();
  for (const input of inputs) {
    const key = sourceKey(input.source, input.source_id);
    const fingerprint = announcementFingerprint(input);
    const held = current.get(key);
    if (held?.fingerprint === fingerprint) {
      summary.announcements.unchanged++;
      continue;
    }
    if (held) summary.announcements.updated++;
    else summary.announcements.inserted++;
    const municipalityIds = [...new Set(input.municipality_ids)];
    const districts = announcementDistricts(input, municipalityIds, batch.districtOf);
    current.set(key, { id: held?.id, fingerprint });
    pending.set(key, {
      id: held?.id,
      row: announcementRow(input, fingerprint, batch.entities.ensure(input.buyer)),
      cpvs: input.cpvs,
      municipalityIds,
      districts,
    });
  }

  return async () => {
    const writes = [...pending.values()];
    const replaced = writes.flatMap((w) => (w.id === undefined ? [] : [w.id]));
    for (const table of CHILD_TABLES) {
      if (replaced.length > 0) await sql(`DELETE FROM ${table} WHERE announcement_id = ANY($1::integer[])`, [replaced]);
    }
    const ids = await allocateIds(sql, 'announcements', writes.length - replaced.length);
    let next = 0;
    for (const write of writes) write.id ??= ids[next++];
    await upsertRows(
      batch.client,
      'announcements',
      ['id', ...ANNOUNCEMENT_COLUMNS],
      writes.map((w) => [w.id as number, ...ANNOUNCEMENT_COLUMNS.map((c) => w.row[c])]),
      { key: 'id', replacing: replaced.length > 0 },
    );
    const cpvs: CopyValue[][] = [];
    const places: CopyValue[][] = [];
    const districts: CopyValue[][] = [];
    for (const w of writes) {
      const id = w.id as number;
      const { published_on, deadline_on } = w.row;
      for (const [position, cpv] of w.cpvs.entries()) cpvs.push([id, position, cpv]);
      for (const municipalityId of w.municipalityIds) places.push([id, municipalityId, published_on, deadline_on]);
      for (const district of w.districts) districts.push([id, district, published_on, deadline_on]);
    }
    await copyRows(batch.client, 'announcement_cpvs', ['announcement_id', 'position', 'cpv'], cpvs);
    await copyRows(
      batch.client,
      'announcement_municipalities',
      ['announcement_id', 'municipality_id', 'published_on', 'deadline_on'],
      places,
    );
    await copyRows(batch.client, 'announcement_districts', ['announcement_id', 'district_key', 'published_on', 'deadline_on'], districts);
    return writes.map((w) => ({ kind: 'announcement', id: w.id as number, key: null, date: w.row.published_on }));
  };
}
