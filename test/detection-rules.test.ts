/**
 * When the rules change (docs/signals.md): a store detected under older rules — a flag the old rules did not raise —
 * gets, at its next run, what detection from scratch under the new rules writes (only the integrity detector derives
 * again when only an integrity type's version is older); a store detected under the current rules reads nothing
 * again, and one detected under rules newer in any part (a newer instance of a rolling deploy) is left alone. The old
 * rules are played by withdrawing the signals of types, as rules that did not raise them would have left them. On
 * both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProcurement, type ProcurementChunk } from '../src/demo/procurement/generate.js';
import { retired } from '../src/detect/detection-context.js';
import { currentRules, DETECTOR_RULES, RULES_WATERMARK, type Rules } from '../src/detect/detection-rules.js';
import { runDetection } from '../src/detect/run-detection.js';
import { readCpvs } from '../src/ingest/cpv.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import type { Store } from '../src/store/store.js';
import { everySignal } from './helpers/every-signal.js';
import { indicatorRecord } from './helpers/indicator-record.js';
import { freshStore } from './helpers/procurement-store.js';

const NOW = new Date('2026-11-30T12:00:00Z');
const OPTIONS = { seed: 11, today: new Date('2026-11-01T00:00:00Z'), contracts: 2_000 };
/** The types the "old rules" did not flag: one of the procurement detectors, one integrity type. */
const CHANGED = ['possible_splitting', 'direct_award_high_value'];
const kept = (rules: Rules) => JSON.stringify(rules);

/** A monthly indicator whose series in one municipality jumps and ends on a record (indicator signals to derive). */
async function writeStays(store: Store): Promise<void> {
  await store.saveIndicators([
    indicatorRecord({ key: 'stays_rules_test', name: 'Overnight stays', name_pt: 'Dormidas', frequency: 'monthly' }),
  ]);
  const porto = (await store.listMunicipalities()).find((m) => m.code === '1312') as { id: number };
  const values = [900, 950, 980, 1000, 4640, 18690];
  const dates = ['2017-08-31', '2017-09-30', '2017-10-31', '2017-11-30', '2017-12-31', '2018-01-31'];
  await store.writeObservations(
    'stays_rules_test',
    values.map((value, i) => ({ municipality_id: porto.id, reference_date: dates[i], value, treatment: 'raw' })),
  );
}

function generated(): ProcurementChunk {
  const all: ProcurementChunk = { entities: [], contracts: [], announcements: [], amendments: [] };
  const options = { ...OPTIONS, municipalities: readMunicipalities(), cpvs: readCpvs() };
  for (const chunk of generateProcurement(options)) {
    all.entities.push(...chunk.entities);
    all.contracts.push(...chunk.contracts);
    all.announcements.push(...chunk.announcements);
    all.amendments.push(...chunk.amendments);
  }
  return all;
}

/** Every signal by key: its status and what it says (not its ids and instants). */
async function standing(store: Store): Promise<Map<string, string>> {
  return new Map(
    (await everySignal(store)).map((s) => {
      const { id: _i, case_id: _c, first_seen_at: _f, last_seen_at: _l, updated_at: _u, ...said } = s;
      return [s.key, JSON.stringify(said)];
    }),
  );
}

/** What rules that did not raise these types would have left: those signals withdrawn, in their cases. */
async function asUnderOldRules(store: Store, types = CHANGED): Promise<number> {
  const flagged = (await everySignal(store)).filter((s) => types.includes(s.type) && s.status === 'active');
  const signals = [];
  for (const s of flagged) {
    const found = s.case_id === null ? null : await store.getCase(s.case_id);
    const link = found?.linked_signals.find((l) => l.signal_id === s.id);
    const ref = found && link ? { key: found.key, type: found.type, family: found.family } : null;
    signals.push(retired(s, 'withdrawn', ref && link ? { ...ref, relationship: link.relationship } : null));
  }
  await store.writeSignals({ signals, now: NOW.toISOString() });
  await runDetection(store, { now: NOW }); // the cases follow, as they would have then
  return flagged.length;
}

describe('detection when the rules change', () => {
  let store: Store;
  let scratch: Map<string, string>;

  beforeAll(async () => {
    store = (await freshStore()).store;
    await store.writeProcurement(generated());
    await writeStays(store);
    await runDetection(store, { now: NOW });
    scratch = await standing(store);
  }, 240_000);
  afterAll(() => store?.close());

  it('a store detected under the current rules reads nothing again, and keeps what it holds', async () => {
    expect(await store.getWatermark(RULES_WATERMARK)).toBe(kept(currentRules()));
    const withdrawn = await asUnderOldRules(store);
    expect(withdrawn).toBeGreaterThan(10);
    const again = await runDetection(store, { now: NOW });
    expect(again.procurement.entries + again.integrity.contracts).toBe(0);
    const held = await standing(store);
    for (const [key, said] of held)
      if (CHANGED.some((t) => key.includes(`:${t}:`))) expect(said, key).not.toMatch(/"status":"active"/);
  });

  const older = 'a store detected under older rules gets, at its next run, what detection from scratch writes';
  it(older, { timeout: 240_000 }, async () => {
    await store.setWatermark(RULES_WATERMARK, kept({ ...currentRules(), detectors: DETECTOR_RULES - 1 }));
    const run = await runDetection(store, { now: NOW });
    expect(run.integrity.contracts).toBe(OPTIONS.contracts);
    expect(await standing(store)).toEqual(scratch);
    expect(await store.getWatermark(RULES_WATERMARK)).toBe(kept(currentRules()));
  });

  const typeOlder =
    'an integrity type at an older version, or integrity signals written an older way, make the integrity detector ' +
    'alone derive everything again';
  it(typeOlder, { timeout: 240_000 }, async () => {
    for (const part of ['possible_splitting', 'integrity_signals']) {
      if (part === 'possible_splitting') expect(await asUnderOldRules(store, [part])).toBeGreaterThan(5);
      const { [part]: version, ...rest } = currentRules();
      await store.setWatermark(RULES_WATERMARK, kept({ ...rest, [part]: version - 1 }));
      const run = await runDetection(store, { now: NOW });
      expect(run.procurement.entries, part).toBe(0);
      expect(run.integrity.contracts, part).toBe(OPTIONS.contracts);
      expect(await standing(store), part).toEqual(scratch);
      expect(await store.getWatermark(RULES_WATERMARK)).toBe(kept(currentRules()));
    }
  });

  it('a type the kept rules do not name (a new one) counts as older', async () => {
    const { single_bid: _new, ...rest } = currentRules();
    await store.setWatermark(RULES_WATERMARK, kept(rest));
    const run = await runDetection(store, { now: NOW });
    expect(run.procurement.entries).toBe(0);
    expect(run.integrity.contracts).toBe(OPTIONS.contracts);
  });

  const oneNumber =
    'the one number kept before the rules were kept by part: 2 is the detectors’ second rules with integrity ' +
    'signals of the first way, 1 older; both older than today’s detectors';
  it(oneNumber, { timeout: 240_000 }, async () => {
    for (const number of ['2', '1']) {
      await store.setWatermark(RULES_WATERMARK, number);
      const run = await runDetection(store, { now: NOW });
      expect(run.procurement.entries, number).toBeGreaterThan(0);
      expect(run.integrity.contracts, number).toBe(OPTIONS.contracts);
      expect(await standing(store), number).toEqual(scratch);
      expect(await store.getWatermark(RULES_WATERMARK)).toBe(kept(currentRules()));
    }
  });

  const indicatorTexts =
    'a store detected under the detectors’ rules of 2026-11-30 morning (2) gets its indicator texts written again: ' +
    'values as stored, a monthly December as a month';
  it(indicatorTexts, { timeout: 240_000 }, async () => {
    const ofStays = (await everySignal(store)).filter((s) => s.subject.indicator === 'stays_rules_test');
    expect(ofStays.map((s) => s.summary_pt).join('\n')).toContain('4 640 (dezembro de 2017)');
    // What the rules of version 2 wrote: whole numbers without their last zeros, December as the year alone.
    const asWritten = (text: string) => text.replaceAll('4 640', '464').replaceAll('dezembro de 2017', '2017');
    const signals = [];
    for (const s of ofStays) {
      const found = s.case_id === null ? null : await store.getCase(s.case_id);
      const link = found?.linked_signals.find((l) => l.signal_id === s.id);
      const { id: _i, first_seen_at: _f, last_seen_at: _l, case_id: _c, ...fields } = s;
      signals.push({
        ...fields,
        summary_pt: asWritten(s.summary_pt as string),
        case:
          found && link
            ? { key: found.key, type: found.type, family: found.family, relationship: link.relationship }
            : null,
      });
    }
    await store.writeSignals({ signals, now: NOW.toISOString() });
    await runDetection(store, { now: NOW });
    expect(await standing(store)).not.toEqual(scratch);
    await store.setWatermark(RULES_WATERMARK, kept({ ...currentRules(), detectors: 2 }));
    await runDetection(store, { now: NOW });
    expect(await standing(store)).toEqual(scratch);
  });

  const unversioned =
    'a store detected before the rules had a version (its detectors’ watermarks, none for the rules) counts as ' +
    'the first';
  it(unversioned, { timeout: 240_000 }, async () => {
    const earlier = (await freshStore()).store;
    try {
      await earlier.writeProcurement(generated());
      await writeStays(earlier);
      const end = String(await earlier.lastChangeSeq());
      for (const name of ['detect:procurement', 'detect:integrity', 'detect:indicators'])
        await earlier.setWatermark(name, end);
      const run = await runDetection(earlier, { now: NOW });
      expect(run.integrity.contracts).toBe(OPTIONS.contracts);
      expect(await standing(earlier)).toEqual(scratch);
    } finally {
      await earlier.close();
    }
  });

  it('a store detected under rules newer in any part is left alone', async () => {
    await asUnderOldRules(store);
    const now = currentRules();
    for (const newer of [
      { ...now, detectors: DETECTOR_RULES + 1 },
      { ...now, possible_splitting: now.possible_splitting + 1, single_bid: 0 },
    ]) {
      await store.setWatermark(RULES_WATERMARK, kept(newer));
      const run = await runDetection(store, { now: NOW });
      expect(run.procurement.entries + run.integrity.contracts).toBe(0);
      expect(await store.getWatermark(RULES_WATERMARK)).toBe(kept(newer));
    }
  });
});
