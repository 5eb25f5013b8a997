/**
 * Announcements upserted by (source, source_id): an unchanged fingerprint is counted and left alone; a changed
 * one keeps its id and gets its child rows (CPVs, municipalities, districts, text row) rewritten. Every
 * announcement inserted or changed appends an `announcement` journal entry.
 */

import type { Change } from '../journal/journal.js';
import type { AnnouncementInput } from '../procurement-records.js';
import { announcementDistricts, announcementRow } from '../shared/announcement-row.js';
import { announcementFingerprint } from '../shared/fingerprint.js';
import { type BatchContext, writeRecords } from './batch-write.js';
import type { BulkRow } from './bulk-load.js';
import { type Held, heldRecords } from './held-records.js';

const CHILD_TABLES = ['announcement_cpvs', 'announcement_municipalities', 'announcement_districts'];

interface Pending {
  id: number | undefined;
  row: ReturnType<typeof announcementRow>;
  cpvs: string[];
  municipalityIds: number[];
  districts: Set<string>;
}

/**
 * Decides what each announcement of the batch does; returns the write (giving its journal entries), to run once the
 * entities are written.
 */
export async function planAnnouncements(
  batch: BatchContext,
  inputs: readonly AnnouncementInput[],
): Promise<() => Promise<Change[]>> {
  const { tx, summary } = batch;
  const held = await heldRecords(tx, 'announcements', inputs);
  const changed: { input: AnnouncementInput; record: Held }[] = [];
  for (const input of inputs) {
    const record = held.change(summary.announcements, input, announcementFingerprint(input));
    if (record) changed.push({ input, record });
  }
  await batch.entities.load(
    tx,
    changed.map(({ input }) => input.buyer.nif),
  );
  const pending = new Map<Held, Pending>();
  for (const { input, record } of changed) {
    const municipalityIds = [...new Set(input.municipality_ids)];
    pending.set(record, {
      id: record.id,
      row: announcementRow(input, record.fingerprint, batch.entities.ensure(input.buyer)),
      cpvs: input.cpvs,
      municipalityIds,
      districts: announcementDistricts(input, municipalityIds, batch.districtOf),
    });
  }

  return async () => {
    const { load } = batch;
    const writes = [...pending.values()];
    const replaced = writes.flatMap((w) => (w.id === undefined ? [] : [w.id]));
    if (replaced.length > 0) {
      await load.unindexText('announcements', tx.dialect.inList('id', '$1'), [replaced]);
      for (const table of CHILD_TABLES)
        await tx.run(`DELETE FROM ${table} WHERE ${tx.dialect.inList('announcement_id', '$1')}`, [replaced]);
    }
    await writeRecords(load, 'announcements', writes);
    const cpvs: BulkRow[] = [];
    const places: BulkRow[] = [];
    const districts: BulkRow[] = [];
    for (const w of writes) {
      const id = w.id as number;
      const { published_on, deadline_on } = w.row;
      for (const [position, cpv] of w.cpvs.entries()) cpvs.push([id, position, cpv]);
      for (const municipalityId of w.municipalityIds) places.push([id, municipalityId, published_on, deadline_on]);
      for (const district of w.districts) districts.push([id, district, published_on, deadline_on]);
    }
    await load.write('announcement_cpvs', ['announcement_id', 'position', 'cpv'], cpvs);
    await load.write(
      'announcement_municipalities',
      ['announcement_id', 'municipality_id', 'published_on', 'deadline_on'],
      places,
    );
    await load.write(
      'announcement_districts',
      ['announcement_id', 'district_key', 'published_on', 'deadline_on'],
      districts,
    );
    if (writes.length > 0) {
      await load.indexText('announcements', tx.dialect.inList('id', '$1'), [writes.map((w) => w.id)]);
    }
    return writes.map((w) => ({ kind: 'announcement', id: w.id as number, key: null, date: w.row.published_on }));
  };
}
