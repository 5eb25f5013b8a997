import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { generateDemoObservations } from '../src/demo/generate.js';
import { DEMO_SOURCE, loadDemo } from '../src/demo/load-demo.js';
import { annualPeriods, monthlyPeriods } from '../src/demo/periods.js';
import { readIndicatorCatalogue } from '../src/ingest/catalogue.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { DEMO_CONTRACT_INDICATOR_SOURCE } from '../src/lib/provenance.js';
import { SIGNAL_TYPE_KEYS } from '../src/signals/catalogue.js';
import type { ObservationInput } from '../src/store/records.js';
import { openTestStore } from './helpers/backend.js';

const MUNICIPALITIES = readMunicipalities();
const CATALOGUE = readIndicatorCatalogue();
const TODAY = new Date('2026-03-15T10:00:00Z');
const idOf = (code: string) => MUNICIPALITIES.find((m) => m.code === code)?.id as number;
const LISBOA = idOf('1106');
const CORVO = idOf('4901');
const BARRANCOS = idOf('0204');
const ALBUFEIRA = idOf('0801');

const digest = (data: Map<string, ObservationInput[]>) =>
  createHash('sha256')
    .update(JSON.stringify([...data]))
    .digest('hex');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const valuesOf = (rows: ObservationInput[], id: number) =>
  rows.filter((r) => r.municipality_id === id && r.value !== null).map((r) => r.value as number);
/** The latest non-null value of each municipality. */
function latest(rows: ObservationInput[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const r of rows) if (r.value !== null) out.set(r.municipality_id, r.value); // rows are by date ascending
  return out;
}

let data: Map<string, ObservationInput[]>;
beforeAll(() => {
  data = generateDemoObservations(MUNICIPALITIES, CATALOGUE, { seed: 42, today: TODAY });
});

describe('periods', () => {
  it('end with the last complete year and month, on the last day of the period', () => {
    const annual = annualPeriods(new Date('2025-01-10T00:00:00Z'));
    expect(annual.at(-1)?.reference_date).toBe('2024-12-31');
    expect(annual.length).toBeGreaterThanOrEqual(12);
    const monthly = monthlyPeriods(new Date('2025-01-10T00:00:00Z'));
    expect(monthly.at(-1)?.reference_date).toBe('2024-12-31');
    expect(monthly.map((p) => p.reference_date)).toContain('2024-02-29');
    expect(monthly.map((p) => p.reference_date)).toContain('2023-02-28');
    expect(monthlyPeriods(new Date('2024-03-31T23:59:59Z')).at(-1)?.reference_date).toBe('2024-02-29');
  });
});

describe('generateDemoObservations', () => {
  it('is deterministic for a seed and a month, whatever the day', () => {
    const again = generateDemoObservations(MUNICIPALITIES, CATALOGUE, {
      seed: 42,
      today: new Date('2026-03-01T00:00:00Z'),
    });
    expect(digest(again)).toBe(digest(data));
  });

  it('gives other values for another seed', () => {
    const other = generateDemoObservations(MUNICIPALITIES, CATALOGUE, { seed: 7, today: TODAY });
    expect(digest(other)).not.toBe(digest(data));
    const a = new Map(data.get('birth_rate')?.map((r) => [`${r.municipality_id}|${r.reference_date}`, r.value]));
    const b = other.get('birth_rate') ?? [];
    const differing = b.filter(
      (r) =>
        a.has(`${r.municipality_id}|${r.reference_date}`) &&
        a.get(`${r.municipality_id}|${r.reference_date}`) !== r.value,
    );
    expect(differing.length).toBeGreaterThan(b.length * 0.8);
  });

  it('keeps history when the month moves: shared points have the same values', () => {
    const later = generateDemoObservations(MUNICIPALITIES, CATALOGUE, {
      seed: 42,
      today: new Date('2026-05-02T00:00:00Z'),
    });
    for (const key of ['registered_unemployed', 'population']) {
      const before = new Map(data.get(key)?.map((r) => [`${r.municipality_id}|${r.reference_date}`, r.value]));
      let shared = 0;
      for (const r of later.get(key) ?? []) {
        const old = before.get(`${r.municipality_id}|${r.reference_date}`);
        if (old == null || r.value === null) continue;
        shared++;
        expect(r.value).toBe(old);
      }
      expect(shared).toBeGreaterThan(1000);
    }
    expect(later.get('registered_unemployed')?.some((r) => r.reference_date === '2026-04-30')).toBe(true);
  });

  it('covers every indicator for every municipality', () => {
    expect([...data.keys()]).toEqual(CATALOGUE.map((e) => e.key));
    for (const [key, rows] of data) {
      const withValue = new Set(rows.filter((r) => r.value !== null).map((r) => r.municipality_id));
      expect(withValue.size, key).toBe(MUNICIPALITIES.length);
    }
  });

  it('has at least 12 years of annual data ending last year, and 10 years of months ending last month', () => {
    for (const entry of CATALOGUE) {
      const rows = data.get(entry.key) ?? [];
      const dates = [...new Set(rows.map((r) => r.reference_date))].sort();
      if (entry.frequency === 'annual') {
        expect(dates.at(-1), entry.key).toBe('2025-12-31');
        expect(dates.length, entry.key).toBeGreaterThanOrEqual(12);
        for (const d of dates) expect(d.endsWith('-12-31')).toBe(true);
        // Even a stale municipality spans at least 10 years.
        const years = new Map<number, number[]>();
        for (const r of rows)
          years.set(r.municipality_id, [...(years.get(r.municipality_id) ?? []), Number(r.reference_date.slice(0, 4))]);
        for (const [id, ys] of years)
          expect(Math.max(...ys) - Math.min(...ys), `${entry.key} ${id}`).toBeGreaterThanOrEqual(10);
      } else {
        expect(dates.at(-1), entry.key).toBe('2026-02-28');
        expect(dates.length, entry.key).toBeGreaterThanOrEqual(120);
        expect(dates).toContain('2024-02-29');
        for (const d of dates) {
          const next = new Date(`${d}T00:00:00Z`);
          next.setUTCDate(next.getUTCDate() + 1);
          expect(next.getUTCDate(), d).toBe(1);
        }
      }
    }
    expect(CATALOGUE.filter((e) => e.frequency === 'monthly').length).toBeGreaterThanOrEqual(3);
  });

  it('has a few missing points and null values, never most', () => {
    let rows = 0;
    let nulls = 0;
    let seriesWithHoles = 0;
    for (const entry of CATALOGUE) {
      const periods = (entry.frequency === 'annual' ? annualPeriods(TODAY) : monthlyPeriods(TODAY)).map(
        (p) => p.reference_date,
      );
      const all = data.get(entry.key) ?? [];
      rows += all.length;
      nulls += all.filter((r) => r.value === null).length;
      for (const m of MUNICIPALITIES) {
        const dates = all.filter((r) => r.municipality_id === m.id).map((r) => r.reference_date);
        const span = periods.slice(periods.indexOf(dates[0]), periods.indexOf(dates[dates.length - 1]) + 1);
        if (span.length > dates.length) seriesWithHoles++;
      }
    }
    expect(nulls / rows).toBeGreaterThan(0.005);
    expect(nulls / rows).toBeLessThan(0.05);
    expect(seriesWithHoles).toBeGreaterThan(50);
  });

  it('has about 5% stale municipalities whose series of some indicators stop 1–3 periods early', () => {
    const stale = new Set<number>();
    for (const entry of CATALOGUE) {
      const periods = (entry.frequency === 'annual' ? annualPeriods(TODAY) : monthlyPeriods(TODAY)).map(
        (p) => p.reference_date,
      );
      const last = new Map<number, string>();
      for (const r of data.get(entry.key) ?? []) last.set(r.municipality_id, r.reference_date);
      for (const [id, date] of last) {
        const lag = periods.length - 1 - periods.indexOf(date);
        expect(lag, `${entry.key} ${id}`).toBeLessThanOrEqual(3);
        if (lag > 0) stale.add(id);
      }
    }
    expect(stale.size).toBeGreaterThanOrEqual(8);
    expect(stale.size).toBeLessThanOrEqual(25);
  });

  it('uses the catalogue treatment, with the latest month of raw monthly series provisional', () => {
    const wrong: string[] = [];
    let provisional = 0;
    for (const entry of CATALOGUE) {
      for (const r of data.get(entry.key) ?? []) {
        const latestMonth =
          entry.frequency === 'monthly' && entry.treatment === 'raw' && r.reference_date === '2026-02-28';
        if (latestMonth) provisional++;
        if (r.treatment !== (latestMonth ? 'estimated' : entry.treatment))
          wrong.push(`${entry.key} ${r.municipality_id} ${r.reference_date}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(provisional).toBeGreaterThan(MUNICIPALITIES.length);
  });

  it('keeps values in the unit range, integers for counts and at most 2 decimals', () => {
    // Violations are collected and asserted once: an expect per point would dominate the run time.
    const bad: string[] = [];
    for (const entry of CATALOGUE) {
      const signed = entry.value_domain === 'signed';
      for (const r of data.get(entry.key) ?? []) {
        if (r.value === null) continue;
        const v = r.value;
        const problem = !Number.isFinite(v)
          ? 'not finite'
          : Math.abs(Math.round(v * 100) - v * 100) > 1e-6
            ? 'more than 2 decimals'
            : !signed && v < 0
              ? 'negative'
              : entry.unit === 'percent' && !signed && v > 100
                ? 'above 100%'
                : entry.unit === 'per_1000' && v > 1000
                  ? 'above 1000‰'
                  : (entry.unit === 'count' || entry.unit === 'persons') && !Number.isInteger(v)
                    ? 'not an integer count'
                    : undefined;
        if (problem) bad.push(`${entry.key} ${r.municipality_id} ${r.reference_date} ${v}: ${problem}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('sizes populations and counts by the municipality', () => {
    const population = data.get('population') ?? [];
    const lisboa = valuesOf(population, LISBOA);
    for (const v of lisboa) expect(Math.abs(v / 545_796 - 1)).toBeLessThan(0.1);
    const corvo = valuesOf(population, CORVO);
    for (const v of corvo) expect(v).toBeLessThan(600);
    // 2021 estimates add up to about the census total of the municipalities that have one.
    const y2021 = population.filter((r) => r.reference_date === '2021-12-31' && r.value !== null);
    const census = y2021.reduce(
      (s, r) => s + (MUNICIPALITIES.find((m) => m.id === r.municipality_id)?.population_2021 ?? 0),
      0,
    );
    const estimated = y2021.reduce((s, r) => s + (r.value as number), 0);
    expect(Math.abs(estimated / census - 1)).toBeLessThan(0.03);
    const enterprises = latest(data.get('enterprises') ?? []);
    expect((enterprises.get(LISBOA) as number) / (enterprises.get(BARRANCOS) as number)).toBeGreaterThan(100);
    const area = latest(data.get('area') ?? []);
    expect(area.get(LISBOA)).toBe(84.92);
  });

  it('keeps rates and prices in realistic ranges', () => {
    const births = (data.get('birth_rate') ?? []).filter((r) => r.value !== null).map((r) => r.value as number);
    expect(Math.min(...births)).toBeGreaterThan(0);
    expect(Math.max(...births)).toBeLessThan(30);
    expect(median(births)).toBeGreaterThan(5);
    expect(median(births)).toBeLessThan(10);
    const imi = (data.get('imi_rate') ?? []).filter((r) => r.value !== null).map((r) => r.value as number);
    expect(Math.min(...imi)).toBeGreaterThanOrEqual(0.3);
    expect(Math.max(...imi)).toBeLessThanOrEqual(0.45);
    const prices = latest(data.get('median_housing_price_m2') ?? []);
    const smallPrices = MUNICIPALITIES.filter((m) => m.population_2021 < 5000).map((m) => prices.get(m.id) as number);
    expect(prices.get(LISBOA) as number).toBeGreaterThan(3 * median(smallPrices));
    // Transfers weigh more per inhabitant in small municipalities.
    const revenue = latest(data.get('municipal_revenue_per_capita') ?? []);
    const small = MUNICIPALITIES.filter((m) => m.population_2021 < 5000).map((m) => revenue.get(m.id) as number);
    const large = MUNICIPALITIES.filter((m) => m.population_2021 > 100_000).map((m) => revenue.get(m.id) as number);
    expect(median(small)).toBeGreaterThan(median(large));
    for (const v of [...small, ...large]) expect(v).toBeGreaterThan(300);
    for (const v of [...small, ...large]) expect(v).toBeLessThan(20_000);
  });

  it('shows the seasons and the 2020 lockdown in monthly series', () => {
    const unemployed = (data.get('registered_unemployed') ?? []).filter(
      (r) => r.municipality_id === ALBUFEIRA && r.value !== null,
    );
    const mean = (month: string) => {
      const xs = unemployed.filter((r) => r.reference_date.slice(5, 7) === month).map((r) => r.value as number);
      return xs.reduce((a, b) => a + b, 0) / xs.length;
    };
    expect(mean('01')).toBeGreaterThan(1.3 * mean('08'));
    const stays = data.get('tourist_overnight_stays') ?? [];
    const total = (date: string) =>
      stays.filter((r) => r.reference_date === date).reduce((s, r) => s + (r.value ?? 0), 0);
    expect(total('2020-04-30')).toBeLessThan(0.3 * total('2019-04-30'));
    expect(total('2019-08-31')).toBeGreaterThan(1.5 * total('2019-02-28'));
  });
});

describe('loadDemo', () => {
  it('loads everything once, then writes nothing on a second run in the same month', async () => {
    const store = (await openTestStore()).store;
    await migrate(store);
    const total = [...data.values()].reduce((s, rows) => s + rows.length, 0);

    // migrate has seeded the reference data: the 308 municipalities and the catalogue, without sources or data.
    expect(await store.listMunicipalities()).toHaveLength(MUNICIPALITIES.length);
    const seeded = await store.listIndicators();
    expect(seeded.map((i) => i.key).sort()).toEqual(CATALOGUE.map((e) => e.key).sort());
    expect(seeded.every((i) => i.source === null)).toBe(true);
    expect(await store.countObservations()).toBe(0);

    const first = await loadDemo(store, { today: TODAY });
    expect(first.seed).toBe(42);
    expect(first.municipalities).toMatchObject({ inserted: 0, updated: 0, unchanged: MUNICIPALITIES.length });
    expect(first.indicators).toMatchObject({ inserted: 0, updated: CATALOGUE.length });
    expect(first.observations).toEqual({ inserted: total, updated: 0, unchanged: 0 });
    expect(first.skipped).toEqual([]);
    expect(await store.countObservations()).toBe(total);
    // Every series is the demo's; the procurement ones say they count no contract (docs/data.md).
    for (const i of await store.listIndicators()) {
      expect(i.source).toBe(i.category === 'procurement' ? DEMO_CONTRACT_INDICATOR_SOURCE : DEMO_SOURCE);
    }
    expect((await store.latestPerMunicipality('population')).length).toBe(MUNICIPALITIES.length);
    // Every endpoint has something on first start: signals of every type, cases, the demo account's rules and matches.
    expect(first.detection.signals.inserted).toBeGreaterThan(1000);
    const types = new Set((await store.listSignals({}, { limit: 100_000 })).map((s) => s.type));
    expect([...types].sort()).toEqual(SIGNAL_TYPE_KEYS.slice().sort());
    expect((await store.listCases({ includeEpisodic: false }, { limit: 1 })).length).toBe(1);
    expect(first.alert_rules).toBeGreaterThan(5);
    expect(first.detection.alerts.matched).toBeGreaterThan(0);

    // Later in the month the generated data is the same; only statuses that depend on the day may move.
    const second = await loadDemo(store, { today: new Date('2026-03-30T23:00:00Z') });
    expect(second.municipalities).toMatchObject({ inserted: 0, updated: 0 });
    expect(second.indicators).toMatchObject({ inserted: 0, updated: 0, unchanged: CATALOGUE.length });
    expect(second.observations).toEqual({ inserted: 0, updated: 0, unchanged: total });
    expect(second.procurement.contracts).toMatchObject({ inserted: 0, updated: 0 });
    expect(second.detection.procurement).toMatchObject({ inserted: 0 });
    expect(second.alert_rules).toBe(first.alert_rules);
    // Run again at the same instant: nothing at all changes.
    const version = await store.dataVersion();
    const third = await loadDemo(store, { today: new Date('2026-03-30T23:00:00Z') });
    expect(third.detection.signals).toMatchObject({ inserted: 0, updated: 0 });
    expect(third.detection.alerts.matched).toBe(0);
    expect(await store.dataVersion()).toBe(version);
    await store.close();
  }, 300_000);

  it('leaves an indicator imported from another source alone', async () => {
    const store = (await openTestStore()).store;
    await migrate(store);
    // The indicators are what this is about: a few contracts keep the two loads' detection short.
    await loadDemo(store, { today: TODAY, contracts: 500 });
    await store.setIndicatorSource('birth_rate', 'INE — Taxa bruta de natalidade');
    await store.writeObservations(
      'birth_rate',
      [{ municipality_id: LISBOA, reference_date: '2024-12-31', value: 9.9, treatment: 'raw' }],
      {
        replace: true,
      },
    );

    const again = await loadDemo(store, { today: TODAY, contracts: 500 });
    expect(again.skipped).toEqual(['birth_rate']);
    expect(again.observations).toMatchObject({ inserted: 0, updated: 0 });
    expect(again.indicators).toMatchObject({ inserted: 0, updated: 0 });
    const birth = (await store.listIndicators()).find((i) => i.key === 'birth_rate');
    expect(birth?.source).toBe('INE — Taxa bruta de natalidade');
    expect(await store.countObservations('birth_rate')).toBe(1);
    expect((await store.series({ indicator: 'birth_rate', municipalityId: LISBOA, limit: 10 }))[0].value).toBe(9.9);
    await store.close();
  }, 300_000);
});
