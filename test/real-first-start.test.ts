/**
 * The first start on an empty store (docs/data.md, "The first start", "Real and synthetic data", "Real data in the
 * box"): what `munidata serve` loads — `importReal` (three real series and the real Portal BASE contracts of
 * January–February 2024, source `base`), then `loadDemo` (no contract generated beside the real ones: only the 300
 * announcements and the other series), then detection — checked the way a user would check it, through the API.
 * Expected values are read from the files of data/real/ and data/municipalities.csv here, independently of src:
 * contracts field by field, the council of Porto's totals, the real series' values; nothing real is marked generated
 * and nothing generated real, on REST (JSON and CSV), A2A and MCP; signals say which data they come from; and
 * `demo remove` leaves exactly the real data. Runs on both stores (MUNIDATA_TEST_BACKEND=postgres for PostgreSQL).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyOperation } from '../src/core/operation.js';
import { ensureDemoAccount } from '../src/demo/demo-account.js';
import { loadDemo } from '../src/demo/load-demo.js';
import { importReal, type RealImportReport } from '../src/ingest/real/import-real.js';
import { csvCells } from './helpers/csv-cells.js';
import { repeatedAwardsByHand, splitsByHand } from './helpers/direct-awards-by-hand.js';
import { everySignal } from './helpers/every-signal.js';
import { freshStore } from './helpers/procurement-store.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';
import { answerData, type CallAnswer, type ChannelName, callOn } from './helpers/three-channels.js';

const dataText = (path: string): string => {
  const bytes = readFileSync(new URL(`../data/${path}`, import.meta.url));
  return (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
};

/** The records of the real BASE file, as the portal's JSON export gives them. */
interface BaseRecord {
  idcontrato: string;
  objectoContrato: unknown;
  adjudicante?: string[];
  adjudicatarios?: string[];
  precoContratual: number;
  dataPublicacao: string;
  localExecucao?: string[];
}
const CONTRACTS: BaseRecord[] = JSON.parse(dataText('real/base-2024-jan-feb/contratos-2024-01-02.json.gz'));
const RECORD = new Map(CONTRACTS.map((r) => [r.idcontrato, r]));
const CRIME = dataText('real/ine-crime-purchasing-power/crime-rate-permille-2016-2022.csv.gz');
const POWER = dataText('real/ine-crime-purchasing-power/purchasing-power-per-capita-1993-2011-2021.csv');

/** data/municipalities.csv (no quoted cells): code, name, 2021 population and the council's tax number. */
const MUNICIPALITIES = dataText('municipalities.csv')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split(','))
  .map((c) => ({ code: c[1], name: c[3], population: Number(c[9]), nif: c[11] }));
const municipality = (name: string) => MUNICIPALITIES.find((m) => m.name === name) as (typeof MUNICIPALITIES)[0];
const LISBOA = municipality('Lisboa');
const PORTO = municipality('Porto');

const REAL_SERIES = ['crime_rate', 'purchasing_power_index', 'burnt_area_by_ignition'];
const ACCEPTED = 21_715;

/** `DD/MM/YYYY` → `YYYY-MM-DD`. */
const isoDay = (d: string) => d.split('/').reverse().join('-');
/** The few HTML entities the portal's export leaves in its texts (`Smart &amp; Bright Ideas`). */
const unescaped = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** A party's tax number as the file glues it to the name (`501306099 - Município do Porto`). */
const nifOf = (party: string) => party.split(/\s+-\s+/)[0].trim();
/** A party's name: what follows the tax number (or the `RGPD` mark); a bare name as it is. */
const nameOf = (party: string) => {
  const glued = /^(RGPD|[A-Za-z]{0,3}\d[\d.-]*|-)\s+-\s+(.*)$/s.exec(party.trim());
  return unescaped((glued ? glued[2] : party).replace(/[\r\n\t]+/g, ' ').trim());
};

let t: TestApp;
let key: string;
let real: RealImportReport;
let rejected: Set<string>;

beforeAll(async () => {
  const now = new Date();
  const { store, dbPath } = await freshStore();
  real = await importReal(store, { now });
  await loadDemo(store, { today: now });
  rejected = new Set(real.contracts.rejected.map((r) => String(r.source_id)));
  t = await startTestApp({ store, dbPath });
  // No history window: every year of every series; every data domain.
  key = (
    await t.keyOnPlan('real_first_start', {
      domains: ['indicators', 'signals', 'procurement'],
      history_years: null,
      requests_per_minute: 1_000_000,
    })
  ).key;
}, 600_000);
afterAll(() => t?.close());

const get = (path: string) => t.get(path, { key });
const pages = (path: string) => collectPages(t, path, { key });
let lisboaPages: Promise<any[]> | undefined;
/** Every real contract executed in Lisboa, read once. */
const lisboaContracts = () => {
  lisboaPages ??= pages('/v1/procurement/contracts?source=base&municipality=Lisboa&limit=200');
  return lisboaPages;
};
/** The first `n` pages of 200 (a list of thousands need not be read whole to see what it marks). */
async function firstPages(path: string, n: number): Promise<any[]> {
  const items: any[] = [];
  let url = `${path}${path.includes('?') ? '&' : '?'}limit=200`;
  for (let page = 0; page < n; page++) {
    const res = await get(url);
    expect(res.status, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    items.push(...res.json.items);
    if (!res.json.has_more) break;
    url = `${path}${path.includes('?') ? '&' : '?'}limit=200&cursor=${encodeURIComponent(res.json.next_cursor)}`;
  }
  return items;
}

describe('the real contracts (source base)', () => {
  it('Lisboa: every contract real, from base, published 2023-12-20…2024-02-28; 30 of them as the file has them', {
    timeout: 300_000,
  }, async () => {
    const items = await lisboaContracts();
    // Each accepted record the file places in Lisboa alone is among them.
    const inLisboa = CONTRACTS.filter(
      (r) =>
        !rejected.has(r.idcontrato) &&
        (r.localExecucao ?? []).length === 1 &&
        r.localExecucao?.[0] === 'Portugal, Lisboa, Lisboa',
    );
    expect(inLisboa.length).toBeGreaterThan(1000);
    const served = new Set(items.map((c) => c.source_id));
    expect(inLisboa.filter((r) => !served.has(r.idcontrato)).map((r) => r.idcontrato)).toEqual([]);
    for (const c of items) {
      expect([c.source, c.synthetic], c.source_id).toEqual(['base', false]);
      expect(c.published_on >= '2023-12-20' && c.published_on <= '2024-02-28', c.published_on).toBe(true);
      expect(c.municipalities).toContain(LISBOA.code);
    }
    const step = Math.floor(items.length / 30);
    const sample = Array.from({ length: 30 }, (_, i) => items[i * step]);
    for (const c of sample) {
      const r = RECORD.get(c.source_id) as BaseRecord;
      expect(r, c.source_id).toBeDefined();
      // The portal's HTML line breaks are line breaks.
      const object = String(r.objectoContrato).replace(/<br\s*\/?>/gi, '\n');
      expect(c.object, c.source_id).toBe(unescaped(object.replace(/\r\n?/g, '\n').trim()));
      expect(c.price_eur, c.source_id).toBe(r.precoContratual);
      expect(c.published_on, c.source_id).toBe(isoDay(r.dataPublicacao));
      expect(
        c.suppliers.map((s: { name: string }) => s.name),
        c.source_id,
      ).toEqual([...new Set((r.adjudicatarios ?? []).map(nameOf))]);
    }
  });

  it('a supplier the portal anonymised ("RGPD - <name>") is served withheld, with no tax number', {
    timeout: 300_000,
  }, async () => {
    const r = CONTRACTS.find(
      (x) =>
        !rejected.has(x.idcontrato) &&
        (x.adjudicatarios ?? []).length === 1 &&
        /^RGPD\b/.test(x.adjudicatarios?.[0] ?? '') &&
        x.localExecucao?.[0] === 'Portugal, Lisboa, Lisboa',
    ) as BaseRecord;
    expect(r).toBeDefined();
    const listed = (await lisboaContracts()).find((c) => c.source_id === r.idcontrato);
    expect(listed, r.idcontrato).toBeDefined();
    const detail = await get(`/v1/procurement/contracts/${listed.id}`);
    expect(detail.status).toBe(200);
    for (const party of [listed.suppliers, detail.json.suppliers]) {
      const name = nameOf(r.adjudicatarios?.[0] as string);
      expect(party).toEqual([{ nif: null, name, withheld: true, nif_kind: null, kind_assumed: null, note: null }]);
    }
    expect(detail.json.synthetic).toBe(false);
  });

  it('a supplier with a foreign tax id opens as any other: its profile, its red flags, its contracts', async () => {
    // World Medica, S.L. is listed as the portal lists it, `ESB82612599 - World Medica, S.L.`: a Spanish tax id.
    const id = 'ESB82612599';
    const theirs = CONTRACTS.filter(
      (r) => !rejected.has(r.idcontrato) && (r.adjudicatarios ?? []).some((p) => p.startsWith(`${id} - `)),
    );
    expect(theirs.length).toBeGreaterThan(1);
    const listed = await get(`/v1/procurement/entities?q=${id}`);
    expect(listed.json.items.map((e: { nif: string }) => e.nif)).toEqual([id]);
    const profile = await get(`/v1/procurement/entities/${id}`);
    expect(profile.status, profile.body.slice(0, 300)).toBe(200);
    expect(profile.json).toMatchObject({ nif: id, name: 'World Medica, S.L.', contracts_as_supplier: theirs.length });
    const contracts = await get(`/v1/procurement/contracts?supplier=${id}`);
    expect(contracts.status, contracts.body.slice(0, 300)).toBe(200);
    expect(contracts.json.items.map((c: { source_id: string }) => c.source_id).sort()).toEqual(
      theirs.map((r) => r.idcontrato).sort(),
    );
    expect((await get(`/v1/procurement/entities/${id}/red-flags`)).status).toBe(200);
    // A Portuguese number mistyped (8 digits) or given with its VAT prefix is still refused, not looked up.
    for (const wrong of ['50005107', 'PT500051070']) {
      expect((await get(`/v1/procurement/entities/${wrong}`)).status).toBe(422);
    }
  });

  it('does not present the placeholder 000000000 as a Portuguese tax number, nor guess kinds unsaid', async () => {
    // `000000000 - Whistleblower Software ApS`: nine digits no one holds, shown where no tax number was given.
    const placeholder = await get('/v1/procurement/entities/000000000');
    expect(placeholder.status, placeholder.body.slice(0, 300)).toBe(200);
    expect(placeholder.json).toMatchObject({
      name: 'Whistleblower Software ApS',
      country: null,
      nif_kind: 'placeholder',
      kind_assumed: true,
    });
    expect(placeholder.json.note).toMatch(/^000000000 is not a tax number anyone holds/);
    // `017-36-7441 - Frederick C. Turner, Jr.`: a natural person under a foreign id; its kind is not known.
    const foreign = (await get('/v1/procurement/entities/017-36-7441')).json;
    expect(foreign).toMatchObject({ country: null, nif_kind: 'foreign', kind_assumed: true });
    expect(foreign.note).toMatch(/whether the holder is a company or a natural person/);
    // A council's own number says all: Portuguese, its kind read from it, nothing to note.
    const porto = (await get(`/v1/procurement/entities/${PORTO.nif}`)).json;
    expect(porto).toMatchObject({ country: 'PT', nif_kind: 'portuguese', kind_assumed: false, note: null });
    // The list says it too, and OCDS names the placeholder's party instead of filing it under PT-NIF.
    const listed = (await get('/v1/procurement/entities?q=Whistleblower')).json.items;
    expect(listed.map((e: { nif_kind: string; country: null }) => [e.nif_kind, e.country])).toEqual([
      ['placeholder', null],
    ]);
    const release = await get('/v1/procurement/ocds/releases?supplier=000000000');
    expect(release.status, release.body.slice(0, 300)).toBe(200);
    const ids = JSON.stringify(release.json);
    expect(ids).not.toContain('PT-NIF-000000000');
    expect(ids).toContain('NAME-whistleblower-software-aps');
  });

  it('no contract is generated: source=demo has none; the aggregate counts the 21,715 accepted, real', async () => {
    expect(real.contracts.rows_read).toBe(CONTRACTS.length);
    expect(real.contracts.accepted).toBe(ACCEPTED);
    expect(real.contracts.rejected).toHaveLength(33);
    const demo = await get('/v1/procurement/contracts?source=demo');
    expect(demo.status).toBe(200);
    expect(demo.json.items).toEqual([]);
    const aggregate = await get('/v1/procurement/aggregate?group_by=year');
    expect(aggregate.status).toBe(200);
    expect(aggregate.json.totals.count).toBe(real.contracts.accepted);
    expect(aggregate.json.synthetic).toBe(false);
    // By year as the file dates them (one record of 20 December 2023, the rest of 2024).
    const byYear = new Map<number, { count: number; cents: number }>();
    for (const r of CONTRACTS.filter((x) => !rejected.has(x.idcontrato))) {
      const year = Number(r.dataPublicacao.slice(-4));
      const y = byYear.get(year) ?? { count: 0, cents: 0 };
      y.count++;
      y.cents += Math.round(r.precoContratual * 100);
      byYear.set(year, y);
    }
    expect(aggregate.json.groups.map((g: { key: { year: number }; count: number }) => [g.key.year, g.count])).toEqual(
      [...byYear].sort(([a], [b]) => a - b).map(([year, y]) => [year, y.count]),
    );
    const cents = [...byYear.values()].reduce((s, y) => s + y.cents, 0);
    expect(aggregate.json.totals.total_eur).toBeCloseTo(cents / 100, 1);
  });

  it("the council of Porto's 2024 as a buyer: the file's contracts and euros, real", async () => {
    expect(PORTO.nif).toMatch(/^\d{9}$/);
    const ofPorto = CONTRACTS.filter(
      (r) =>
        !rejected.has(r.idcontrato) &&
        r.dataPublicacao.endsWith('/2024') &&
        (r.adjudicante ?? []).some((p) => nifOf(p) === PORTO.nif),
    );
    expect(ofPorto.length).toBeGreaterThan(10);
    const euros = ofPorto.reduce((s, r) => s + Math.round(r.precoContratual * 100), 0) / 100;
    const res = await get(`/v1/procurement/entities/${PORTO.nif}`);
    expect(res.status, res.body.slice(0, 300)).toBe(200);
    const profile = res.json;
    expect(profile).toMatchObject({ nif: PORTO.nif, kind: 'municipality', municipality: PORTO.code, synthetic: false });
    const y2024 = profile.by_year.find((y: { year: number }) => y.year === 2024);
    expect(y2024?.as_buyer_count).toBe(ofPorto.length);
    expect(y2024?.as_buyer_eur).toBeCloseTo(euros, 2);
    expect(profile.contracts_as_buyer).toBe(ofPorto.length);
    expect(profile.total_as_buyer_eur).toBeCloseTo(euros, 2);
    expect(profile.recent_contracts.length).toBeGreaterThan(0);
    for (const c of profile.recent_contracts) expect(c).toMatchObject({ source: 'base', synthetic: false });
  });

  it("the ocids procurement_ocds_record's description shows for real contracts answer on a first start", async () => {
    const op = t.app.registry.get('procurement_ocds_record') as AnyOperation;
    const said = `${op.description} ${JSON.stringify(op.input)}`;
    const ocids = [...said.matchAll(/ocds-munidata-base-[a-z]+-[0-9]+/g)].map((m) => m[0]);
    expect(ocids.length).toBeGreaterThan(0);
    for (const ocid of ocids) {
      const res = await get(`/v1/procurement/ocds/records/${ocid}`);
      expect(res.status, `${ocid}: ${res.body.slice(0, 200)}`).toBe(200);
      // The number in a contract's ocid is its source_id (its id on the portal), which the file has.
      expect(RECORD.has(ocid.split('-').pop() as string), ocid).toBe(true);
    }
  });
});

describe('the indicators', () => {
  it('crime_rate in Lisboa is the INE file: 66.9 ‰ in 2016, 59.2 ‰ in 2022, real', async () => {
    const line = new RegExp(`^[^,]*,${LISBOA.code},[^,]*,municipality,(\\d{4}),Overall total,([^,]*),`, 'gm');
    const fromFile = new Map([...CRIME.matchAll(line)].map((m) => [Number(m[1]), Number(m[2])]));
    expect([fromFile.get(2016), fromFile.get(2022)]).toEqual([66.9, 59.2]);
    const res = await get('/v1/indicators/crime_rate/series?municipality=Lisboa&limit=200');
    expect(res.status).toBe(200);
    const items: { reference_date: string; value: number; synthetic: boolean }[] = res.json.items;
    const value = (year: number) => items.find((p) => p.reference_date.startsWith(`${year}-`))?.value;
    expect([value(2016), value(2022)]).toEqual([66.9, 59.2]);
    expect(items.map((p) => [Number(p.reference_date.slice(0, 4)), p.value])).toEqual(
      [...fromFile].sort(([a], [b]) => a - b),
    );
    expect(items.every((p) => p.synthetic === false)).toBe(true);
    expect((await get('/v1/indicators/crime_rate')).json.synthetic).toBe(false);
  });

  it('purchasing_power_index 2021, weighted by the 2021 population, averages 100 ± 0.5 (Portugal = 100)', async () => {
    const rows = await pages('/v1/indicators/purchasing_power_index/snapshot?date=2021-12-31&limit=200');
    expect(rows).toHaveLength(308);
    const fromFile = new Map(
      POWER.trim()
        .split('\n')
        .map((l) => l.split(','))
        .filter((c) => c[3] === '2021')
        .map((c) => [c[0], Number(c[4])]),
    );
    let weighted = 0;
    let population = 0;
    for (const m of MUNICIPALITIES) {
      const row = rows.find((r) => r.municipality === m.code);
      expect(row?.value, m.name).toBe(fromFile.get(m.code));
      expect(row?.synthetic, m.name).toBe(false);
      weighted += row.value * m.population;
      population += m.population;
    }
    expect(Math.abs(weighted / population - 100)).toBeLessThanOrEqual(0.5);
  });

  it('a generated series (population) is synthetic; public_contracts says it is not from the contracts', async () => {
    const population = await get('/v1/indicators/population/series?municipality=Lisboa&limit=200');
    expect(population.status).toBe(200);
    expect(population.json.items.length).toBeGreaterThan(0);
    expect(population.json.items.every((p: { synthetic: boolean }) => p.synthetic === true)).toBe(true);
    expect((await get('/v1/indicators/population')).json.synthetic).toBe(true);
    const contracts = (await get('/v1/indicators/public_contracts')).json;
    expect(contracts.synthetic).toBe(true);
    expect(contracts.source).toMatch(/not computed from the contracts served/);
    // A generated series' summary says where the published one comes from: never as the origin of these values.
    const burnt = (await get('/v1/indicators/burnt_area')).json;
    expect(burnt.synthetic).toBe(true);
    expect(burnt.summary).toMatch(/^Demo data: the values served are generated, not published by the source named/);
    expect(burnt.summary).toContain('ICNF');
    expect(burnt.summary_pt).toMatch(/^Dados de demonstração: os valores servidos são gerados/);
    const crime = (await get('/v1/indicators/crime_rate')).json;
    expect(crime.synthetic).toBe(false);
    expect(crime.summary).not.toMatch(/Demo data/);
  });
});

describe('real and generated apart, on every channel', () => {
  const op = (name: string) => t.app.registry.get(name) as AnyOperation;

  /** The items of a list operation's answer on one channel. */
  async function itemsOn(channel: ChannelName, name: string, input: Record<string, unknown>): Promise<any[]> {
    const answer = await callOn(t, channel, op(name), input, key);
    expect(answer?.kind, `${name} on ${channel}: ${answer?.body.slice(0, 300)}`).toBeUndefined();
    expect(answer?.formProblem).toBeUndefined();
    return answerData(answer as CallAnswer).items;
  }

  it('contracts of base are real and announcements of demo generated: REST, A2A and MCP', {
    timeout: 120_000,
  }, async () => {
    for (const [name, source, synthetic] of [
      ['procurement_contracts', 'base', false],
      ['procurement_announcements', 'demo', true],
    ] as const) {
      const rest = await itemsOn('rest', name, { source, limit: 200 });
      expect(rest).toHaveLength(200);
      for (const channel of ['a2a', 'mcp'] as const) {
        const items = await itemsOn(channel, name, { source, limit: 200 });
        expect(
          items.map((i) => i.source_id),
          `${name} on ${channel}`,
        ).toEqual(rest.map((i) => i.source_id));
        for (const item of items)
          expect([item.source, item.synthetic], `${channel} ${item.source_id}`).toEqual([source, synthetic]);
      }
      for (const item of rest) expect([item.source, item.synthetic], item.source_id).toEqual([source, synthetic]);
      // The other way round: no real announcement exists, no generated contract.
      const other = name === 'procurement_contracts' ? 'demo' : 'base';
      for (const channel of ['rest', 'a2a', 'mcp'] as const) {
        expect(await itemsOn(channel, name, { source: other }), `${name} ${other} on ${channel}`).toEqual([]);
      }
    }
    // Every one of the 300 generated announcements, unfiltered: all generated.
    const announcements = await pages('/v1/procurement/announcements?limit=200');
    expect(announcements).toHaveLength(300);
    expect(announcements.every((a) => a.source === 'demo' && a.synthetic === true)).toBe(true);
  });

  it('the CSV forms say the same in their synthetic column', async () => {
    for (const [path, source, synthetic] of [
      ['/v1/procurement/contracts?source=base&format=csv&limit=200', 'base', 'false'],
      ['/v1/procurement/contracts?source=base&municipality=Porto&format=csv&limit=200', 'base', 'false'],
      ['/v1/procurement/announcements?source=demo&format=csv&limit=200', 'demo', 'true'],
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^text\/csv/);
      const [header, ...rows] = csvCells(res.body);
      const column = (name: string) => header.indexOf(name);
      expect(column('synthetic'), path).toBeGreaterThan(-1);
      expect(rows.length, path).toBeGreaterThan(0);
      for (const row of rows) {
        expect([row[column('source')], row[column('synthetic')]], `${path}: ${row[column('source_id')]}`).toEqual([
          source,
          synthetic,
        ]);
      }
    }
  });

  it('/v1/sources: base real, 21,715 contracts of 2023-12-20…2024-02-28; demo generated, no contract', async () => {
    const res = await get('/v1/sources');
    expect(res.status).toBe(200);
    const items: any[] = res.json.items;
    const base = items.find((s) => s.key === 'base');
    expect(base).toMatchObject({
      kind: 'procurement',
      synthetic: false,
      records: { contracts: ACCEPTED, announcements: 0, amendments: 0 },
      coverage: { from: '2023-12-20', to: '2024-02-28' },
    });
    // Councils among the buyers: the municipalities whose tax number is an `adjudicante` of an accepted record.
    const councils = new Map(MUNICIPALITIES.map((m) => [m.nif, m.code]));
    const buying = new Set(
      CONTRACTS.filter((r) => !rejected.has(r.idcontrato)).flatMap((r) =>
        (r.adjudicante ?? []).map((p) => councils.get(nifOf(p))).filter((c) => c !== undefined),
      ),
    );
    expect(buying.size).toBe(306); // none for Praia da Vitória and Horta (data/real/base-2024-jan-feb/README.md)
    expect(base.coverage.municipalities).toBe(buying.size);
    const demo = items.find((s) => s.key === 'demo');
    expect(demo).toMatchObject({ kind: 'procurement', synthetic: true, records: { announcements: 300 } });
    expect(demo.records.contracts ?? 0).toBe(0);
    expect(demo.records.amendments ?? 0).toBe(0);
    // Its coverage counts the councils buying in its notices, the records whose dates its period spans.
    const notices = await pages('/v1/procurement/announcements?source=demo&limit=200');
    const noticeCouncils = new Set(notices.map((a) => councils.get(a.buyer.nif)).filter((c) => c !== undefined));
    expect(noticeCouncils.size).toBeGreaterThan(0);
    expect(demo.coverage.municipalities).toBe(noticeCouncils.size);
    for (const indicator of REAL_SERIES) {
      expect(items.find((s) => s.indicators.includes(indicator))?.synthetic, indicator).toBe(false);
    }
    expect(items.find((s) => s.indicators.includes('population'))?.synthetic).toBe(true);
  });
});

describe('signals', () => {
  it('signals of real contracts are real and untitled [demo]; every [demo] signal is synthetic', {
    timeout: 300_000,
  }, async () => {
    const keys = new Map((await everySignal(t.store)).map((s) => [s.id, s.key]));
    const served = await pages('/v1/signals?limit=200');
    expect(served.length).toBe(keys.size);
    const fromReal = served.filter((s) => keys.get(s.id)?.includes(':base:'));
    expect(fromReal.length).toBeGreaterThan(0);
    for (const s of fromReal) {
      expect(s.synthetic, keys.get(s.id)).toBe(false);
      expect(s.title_pt ?? '', keys.get(s.id)).not.toMatch(/^\[demo\]/);
      expect(s.title_en ?? '', keys.get(s.id)).not.toMatch(/^\[demo\]/);
    }
    const marked = served.filter((s) => /^\[demo\]/.test(s.title_pt ?? '') || /^\[demo\]/.test(s.title_en ?? ''));
    expect(marked.length).toBeGreaterThan(0);
    for (const s of marked) expect(s.synthetic, `${keys.get(s.id)}: ${s.title_pt}`).toBe(true);
    // And the other way round: a synthetic signal is titled [demo].
    for (const s of served.filter((x) => x.synthetic))
      expect(s.title_pt ?? '[demo]', keys.get(s.id)).toMatch(/^\[demo\] /);
  });
});

describe("the demo account's alert rules", () => {
  it('each records matches on a first start, though the real contracts are older than the alert window', async () => {
    const account = await ensureDemoAccount(t.store, new Date());
    const rules = await t.store.listAlertRules({ accountId: account.id }, { limit: 100 });
    expect(rules.length).toBe(10);
    const counts = new Map(
      (await t.store.alertMatchCounts(account.id, '1970-01-01T00:00:00Z')).map((c) => [c.rule_id, c]),
    );
    for (const rule of rules) expect(counts.get(rule.id)?.count ?? 0, rule.name).toBeGreaterThan(0);
  });
});

describe('integrity flags on the real contracts', () => {
  // The fields the real copy lacks (data/real/base-2024-jan-feb/README.md): no flag may rest on them.
  const NEEDS_ABSENT_FIELDS = [
    'short_submission_period',
    'short_submission_period_vs_comparable',
    'price_at_base_price',
    'cost_overrun',
    'delay',
    'excessive_unsuccessful_bids',
  ];

  it('never flags on a field the source lacks: those types are not assessable, each saying why', {
    timeout: 120_000,
  }, async () => {
    const page = await t.get('/v1/procurement/contracts?source=base&limit=40', { key });
    expect(page.json.items.length).toBe(40);
    for (const c of page.json.items) {
      const res = await t.get(`/v1/procurement/contracts/${c.id}/red-flags`, { key });
      expect(res.status).toBe(200);
      expect(res.json.synthetic).toBe(false);
      for (const a of res.json.assessments) {
        if (NEEDS_ABSENT_FIELDS.includes(a.type)) expect(a.state, `${c.id} ${a.type}`).toBe('not_assessable');
        // Single bid on a direct award does not apply; on an open procedure the copy names no competitor.
        if (a.type === 'single_bid') expect(a.state, `${c.id}`).not.toBe('flagged');
        expect(a.reason.length).toBeGreaterThan(10);
      }
    }
  });
});

describe('entity lookups', () => {
  it('find a council as people name it, "Câmara Municipal de …", which the portal names "Município de …"', async () => {
    const lookup = async (q: string) =>
      (await get(`/v1/procurement/lookup/entities?q=${encodeURIComponent(q)}`)).json as { nif: string }[];
    expect((await lookup('camara municipal de lisboa'))[0].nif).toBe(LISBOA.nif);
    expect((await lookup('Câmara Municipal do Porto'))[0].nif).toBe(PORTO.nif);
    expect((await lookup('CM Porto')).map((e) => e.nif)).toContain(PORTO.nif);
  });

  it("say which entries the demo made up, where a made-up buyer bears a real body's name", async () => {
    const named = new Set(CONTRACTS.flatMap((r) => [...(r.adjudicante ?? []), ...(r.adjudicatarios ?? [])].map(nifOf)));
    const found = (await get(`/v1/procurement/lookup/entities?q=${encodeURIComponent('Área Metropolitana de Lisboa')}`))
      .json as { nif: string; name: string; synthetic: boolean }[];
    const same = found.filter((e) => e.name === 'Área Metropolitana de Lisboa');
    expect(same.length).toBeGreaterThan(1); // the real body, and the buyer of generated notices
    for (const e of found) expect(e.synthetic, `${e.nif} ${e.name}`).toBe(!named.has(e.nif));
    expect(same.filter((e) => !e.synthetic)).toHaveLength(1);
  });
});

describe("a supplier's red flags", () => {
  it('for an entity that buys nothing, the empty counts say why and where its flags are', async () => {
    // MEO: a supplier in the file, never a buyer.
    const meo = '504615947';
    const supplied = CONTRACTS.filter(
      (r) => !rejected.has(r.idcontrato) && (r.adjudicatarios ?? []).some((p) => nifOf(p) === meo),
    );
    expect(supplied.length).toBeGreaterThan(10);
    expect(CONTRACTS.some((r) => (r.adjudicante ?? []).some((p) => nifOf(p) === meo))).toBe(false);
    const flags = (await get(`/v1/procurement/entities/${meo}/red-flags`)).json;
    expect(flags).toMatchObject({ contracts_assessed: 0, contracts_flagged: 0 });
    expect(flags.note).toContain(`is a buyer in no contract held, so none was assessed here`);
    expect(flags.note).toContain(`It is a supplier in ${supplied.length} contracts`);
    expect(flags.note).toContain(`supplier=${meo}`);
    expect((await get(`/v1/procurement/entities/${PORTO.nif}/red-flags`)).json.note).toBeNull();
  });
});

describe('integrity flags on the real contracts, against a reading by hand', () => {
  // The islands' councils by their INE code (31–32 Madeira, 41–49 the Azores), as data/municipalities.csv gives them.
  const councils = new Map(
    MUNICIPALITIES.filter((m) => /^[34]/.test(m.code)).map(
      (m) => [m.nif, m.code < '40' ? 'madeira' : 'azores'] as const,
    ),
  );
  /** The file's ids of the contracts the service flags with `type` (each signal's summary names its red flags). */
  const flaggedIds = async (type: string) => {
    const ids = new Set<string>();
    for (const s of await pages(`/v1/signals?type=${type}&limit=200`)) {
      const contract = /\/v1\/procurement\/contracts\/(\d+)\/red-flags/.exec(s.summary_pt)?.[1];
      ids.add((await get(`/v1/procurement/contracts/${contract}`)).json.source_id);
    }
    return ids;
  };

  it('possible splitting: every split a reading of the file finds, and no other', { timeout: 120_000 }, async () => {
    const byHand = splitsByHand(CONTRACTS, councils);
    expect(byHand.size).toBeGreaterThan(40);
    expect([...(await flaggedIds('possible_splitting'))].sort()).toEqual([...byHand].sort());
  });

  const repeated = 'art. 113.º n.º 2: every award the earlier ones barred, read from the file, and no other';
  it(repeated, { timeout: 120_000 }, async () => {
    const byHand = repeatedAwardsByHand(CONTRACTS, councils);
    expect(byHand.size).toBeGreaterThan(20);
    expect([...(await flaggedIds('repeated_direct_awards'))].sort()).toEqual([...byHand].sort());
  });
});

describe('demo remove on the first-start store (last: it changes the store)', () => {
  it('leaves exactly the real data: 21,715 base contracts, no announcement, the three real series', {
    timeout: 300_000,
  }, async () => {
    const counts = async () =>
      Object.fromEntries(await Promise.all(REAL_SERIES.map(async (k) => [k, await t.store.countObservations(k)])));
    const before = await counts();
    for (const s of real.series) expect(before[s.indicator], s.indicator).toBe(s.placed);
    await t.store.removeDemoData();
    t.clock.advance(61_000); // past the app's check of the data version (and the minute's rate window)

    expect(await counts()).toEqual(before);
    for (const indicator of await t.store.listIndicators()) {
      if (REAL_SERIES.includes(indicator.key)) continue;
      expect(await t.store.countObservations(indicator.key), indicator.key).toBe(0);
    }
    const aggregate = (await get('/v1/procurement/aggregate?group_by=year')).json;
    expect(aggregate.totals.count).toBe(ACCEPTED);
    expect(aggregate.synthetic).toBe(false);
    const base = (await get('/v1/procurement/aggregate?group_by=year&source=base')).json;
    expect(base.totals.count).toBe(ACCEPTED);
    const contracts = await firstPages('/v1/procurement/contracts', 3);
    expect(contracts.every((c) => c.source === 'base' && c.synthetic === false)).toBe(true);
    expect((await get('/v1/procurement/announcements')).json.items).toEqual([]);
    expect((await get('/v1/indicators/population/series?municipality=Lisboa')).json.items).toEqual([]);
    const crime = (await get('/v1/indicators/crime_rate/series?municipality=Lisboa&limit=200')).json.items;
    expect(crime).toHaveLength(7);

    const entities = await firstPages('/v1/procurement/entities', 5);
    expect(entities.length).toBeGreaterThan(200);
    expect(entities.filter((e) => e.synthetic).map((e) => `${e.nif} ${e.name}`)).toEqual([]);

    const sources: any[] = (await get('/v1/sources')).json.items;
    const generated = sources.filter((s) => s.synthetic);
    const held = (s: { records: Record<string, number | undefined> }) =>
      Object.values(s.records).reduce<number>((sum, n) => sum + (n ?? 0), 0);
    expect(generated.filter((s) => held(s) > 0).map((s) => [s.key, s.records])).toEqual([]);
    expect(sources.find((s) => s.key === 'base')?.records.contracts).toBe(ACCEPTED);
  });
});
