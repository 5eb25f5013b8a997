/**
 * `munidata sync ine` and `sync base` against a local server replaying the real formats (the project's fixtures:
 * INE's answer for indicator 0008264, one period per request; the portal's contracts as a dados.gov.pt dataset whose
 * file is a ZIP), with 429s and connections dropped half-way through a body: what is imported is whole, what could
 * not be fetched writes nothing, and a second run fetches only what is new (docs/data.md, Syncing).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { readIneMappings } from '../src/ingest/catalogue.js';
import { importIne } from '../src/ingest/ine/import-ine.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { PoliteClient } from '../src/ingest/sync/polite-client.js';
import { syncBase } from '../src/ingest/sync/sync-base.js';
import { syncIne } from '../src/ingest/sync/sync-ine.js';
import { AdminError } from '../src/lib/admin-error.js';
import type { Store } from '../src/store/store.js';
import { openTestStore } from './helpers/backend.js';
import { type ReplayServer, type Reply, startReplayServer } from './helpers/replay-server.js';
import { copyDemoStore } from './helpers/test-app.js';
import { zipOf } from './helpers/zip.js';

const FIXTURE = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
const INE_SAMPLE = JSON.parse(FIXTURE('ine-indicator-sample.json').toString('utf8'))[0];
const YEARS = Object.keys(INE_SAMPLE.Pref).sort();
const NOW = new Date('2023-06-15T12:00:00Z');

let server: ReplayServer | undefined;
const stores: Store[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const s of stores.splice(0)) await s.close();
});

/** INE's answer to one period of 0008264 (the documented `Dados` form), or its refusal for a year it lacks. */
function ineAnswer(url: URL): string {
  const year = url.searchParams.get('Dim1')?.replace(/^S7A/, '') ?? '';
  if (url.searchParams.get('varcd') !== '0008264' || !(year in INE_SAMPLE.Pref)) {
    return JSON.stringify([
      { IndicadorCod: url.searchParams.get('varcd'), Sucesso: { Falso: [{ Msg: 'Dados não disponíveis' }] } },
    ]);
  }
  const { Pref, DataUltimoPref, DesagregacaoGeo, ...head } = INE_SAMPLE;
  return JSON.stringify([
    {
      ...head,
      DataUltimoAtualizacao: DataUltimoPref,
      Dados: { [year]: Pref[year] },
      Sucesso: { Verdadeiro: [{ Msg: 'OK' }] },
    },
  ]);
}

const client = (log?: (line: string) => void) =>
  new PoliteClient({ pauseMs: 0, baseDelayMs: 1, retries: 3, sleep: async () => {}, log });

async function demoStore(): Promise<Store> {
  const { store } = copyDemoStore();
  stores.push(store);
  return store;
}

async function pointsOn(store: Store, indicator: string, date: string): Promise<number> {
  return (await store.latestPerMunicipality(indicator, date)).filter((r) => r.reference_date === date).length;
}

describe('sync ine', () => {
  const onePeriodPerRequest =
    'fetches one period per request through 429s and a dropped connection, and imports every period whole';
  it(onePeriodPerRequest, async () => {
    const dropped = new Set<string>();
    server = await startReplayServer((url, n): Reply => {
      if (n === 1) return { status: 429, retryAfter: 0 };
      if (url.searchParams.get('Dim1') === 'S7A2015' && !dropped.has('2015')) {
        dropped.add('2015');
        return { drop: true, body: ineAnswer(url) };
      }
      if (n === 5) return { status: 503 };
      return { body: ineAnswer(url) };
    });
    const store = await demoStore();
    const lines: string[] = [];
    const report = await syncIne(store, {
      client: client((l) => lines.push(l)),
      baseUrl: server.url,
      indicators: ['birth_rate'],
      since: YEARS[0],
      now: NOW,
      log: (l) => lines.push(l),
    });

    expect(report.ok).toBe(true);
    const [birth] = report.indicators;
    expect(birth.periods.filter((p) => p.status === 'imported').map((p) => p.period)).toEqual(YEARS);
    expect(birth.periods.filter((p) => p.status === 'not published').map((p) => p.period)).toEqual(['2023']);
    // 13 periods, plus the retries of the 429, the 503 and the dropped answer.
    expect(server.requests).toHaveLength(13 + 3);
    for (const path of server.requests)
      expect(path).toMatch(/^\/ine\/json_indicador\/pindica\.jsp\?op=2&varcd=0008264&Dim1=S7A\d{4}&lang=PT$/);
    expect(await store.countObservations('birth_rate')).toBe(308 * YEARS.length);
    expect((await store.listIndicators()).find((i) => i.key === 'birth_rate')?.source).toMatch(
      /^INE 0008264 — Taxa bruta de natalidade/,
    );
    expect(lines.join('\n')).toMatch(
      new RegExp(
        String.raw`INE birth_rate \(0008264\) 2011…2023: 12 of 13 periods imported ` +
          String.raw`\(\d+ points inserted, \d+ updated, 0 unchanged\), 1 not published`,
      ),
    );
    expect(lines.join('\n')).toMatch(/HTTP 429 .* retry 1 of 3/);
  });

  const resumesFromLastPeriod =
    'leaves a period it could not fetch whole unwritten, and the next run goes on from the last period stored';
  it(resumesFromLastPeriod, async () => {
    server = await startReplayServer(
      (url): Reply =>
        url.searchParams.get('Dim1') === 'S7A2016' ? { drop: true, body: ineAnswer(url) } : { body: ineAnswer(url) },
    );
    const store = await demoStore();
    const first = await syncIne(store, {
      client: client(),
      baseUrl: server.url,
      indicators: ['birth_rate'],
      since: YEARS[0],
      now: NOW,
    });
    expect(first.ok).toBe(false);
    expect(first.indicators[0].status).toBe('failed');
    expect(first.indicators[0].error).toMatch(/S7A2016.*after 4 attempts/);
    expect(await store.countObservations('birth_rate')).toBe(308 * 5); // 2011–2015, each whole
    expect(await pointsOn(store, 'birth_rate', '2016-12-31')).toBe(0);
    await server.close();

    server = await startReplayServer((url): Reply => ({ body: ineAnswer(url) }));
    const second = await syncIne(store, {
      client: client(),
      baseUrl: server.url,
      indicators: ['birth_rate'],
      now: NOW,
    });
    expect(second.ok).toBe(true);
    expect(server.requests.map((r) => new URL(r, 'http://x').searchParams.get('Dim1'))).toEqual(
      ['2015', '2016', '2017', '2018', '2019', '2020', '2021', '2022', '2023'].map((y) => `S7A${y}`),
    );
    expect(second.indicators[0].periods[0]).toMatchObject({ period: '2015', unchanged: 308 });
    expect(await store.countObservations('birth_rate')).toBe(308 * YEARS.length);
  });

  it('refuses an indicator the catalogue has no INE code for, naming those that have one', async () => {
    server = await startReplayServer((url): Reply => ({ body: ineAnswer(url) }));
    const store = await demoStore();
    await expect(
      syncIne(store, { client: client(), baseUrl: server.url, indicators: ['imi_rate'], now: NOW }),
    ).rejects.toThrow(/"imi_rate" has no INE code.*birth_rate/);
    expect(server.requests).toEqual([]);
  });
});

describe('the INE catalogue codes and the import guards', () => {
  const mappings = readIneMappings();

  it('gives the high- and medium-confidence codes, each with its evidence, and none for the rest', () => {
    expect(mappings.get('birth_rate')).toMatchObject({
      ine_varcd: '0008264',
      ine_confidence: 'high',
      ine_dimensions: {},
    });
    expect(mappings.get('population')).toMatchObject({
      ine_varcd: '0012917',
      ine_dimensions: { dim_3: 'T', dim_4: 'T' },
    });
    expect(mappings.get('burnt_area')?.ine_varcd).toBeNull(); // a low-confidence code is left out
    for (const [key, m] of mappings) {
      if (m.ine_varcd === null) continue;
      expect(['high', 'medium'], key).toContain(m.ine_confidence);
      expect(m.ine_evidence, key).toBeTruthy();
    }
  });

  it('refuses the birth-rate file (0008264, ‰) as population: by the code, by the unit, unless forced', async () => {
    const store = await demoStore();
    const file = FIXTURE('ine-indicator-sample.json').toString('utf8');
    const before = await store.countObservations('population');
    const byCode = importIne(store, file, {
      indicator: 'population',
      catalogueCode: mappings.get('population')?.ine_varcd,
    });
    await expect(byCode).rejects.toThrow(AdminError);
    await expect(byCode).rejects.toThrow(/INE indicator 0008264.*"population" is INE 0012917/);
    await expect(importIne(store, file, { indicator: 'population' })).rejects.toThrow(
      /unit \(‰, INE 0008264\) contradicts "population"/,
    );
    expect(await store.countObservations('population')).toBe(before);
    expect((await store.listIndicators()).find((i) => i.key === 'population')?.source).toMatch(/demo/);
    const forced = await importIne(store, file, { indicator: 'population', force: true });
    expect(forced.source).toMatch(/^INE 0008264/);
  });

  it("never merges another source's series silently", async () => {
    const store = await demoStore();
    const file = FIXTURE('ine-indicator-sample.json').toString('utf8');
    await importIne(store, file, { indicator: 'birth_rate', catalogueCode: '0008264' });
    const other = JSON.parse(file);
    other[0].IndicadorCod = '0099999';
    await expect(importIne(store, JSON.stringify(other), { indicator: 'birth_rate' })).rejects.toThrow(
      /holds another source's series \("INE 0008264/,
    );
    // The same code again is the same source: merged, unchanged.
    const again = await importIne(store, file, { indicator: 'birth_rate', catalogueCode: '0008264' });
    expect(again.placed.unchanged).toBe(again.placed.rows);
  });
});

// ------------------------------------------------------------------------------------------------ BASE

const CONTRACTS = FIXTURE('base-contracts-sample.json');
const CONTRACTS_ZIP = zipOf('ContratosPublicos2024.json', CONTRACTS);

/** dados.gov.pt's description of a dataset: its files, one per year, in JSON (a ZIP for contracts) and XLSX. */
function datasetAnswer(base: string, slug: string): string {
  if (!slug.includes('contratos-de')) return JSON.stringify({ slug, resources: [] });
  return JSON.stringify({
    slug,
    resources: [
      { title: 'Contratos 2023 (JSON)', format: 'zip', url: `${base}/files/contratos2023.zip` },
      { title: 'Contratos 2024 (XLSX)', format: 'xlsx', url: `${base}/files/contratos2024.xlsx` },
      { title: 'Contratos 2024 (JSON)', format: 'zip', url: `${base}/files/contratos2024.zip` },
    ],
  });
}

async function freshStore(): Promise<Store> {
  const { store } = await openTestStore();
  stores.push(store);
  await migrate(store);
  await store.saveMunicipalities(readMunicipalities());
  return store;
}

describe('sync base', () => {
  const contractsFromZip =
    "imports the year's contracts file from its ZIP through a dropped connection, and a second run changes nothing";
  it(contractsFromZip, async () => {
    let drops = 0;
    server = await startReplayServer((url): Reply => {
      if (url.pathname.startsWith('/api/1/datasets/'))
        return { body: datasetAnswer(server?.url ?? '', url.pathname.split('/')[4]) };
      if (url.pathname === '/files/contratos2024.zip')
        return drops++ === 0 ? { drop: true, body: CONTRACTS_ZIP } : { body: CONTRACTS_ZIP };
      return { status: 404 };
    });
    const store = await freshStore();
    const lines: string[] = [];
    const report = await syncBase(store, {
      client: client(),
      baseUrl: `${server.url}/api/1/datasets`,
      since: '2024-01-01',
      now: NOW,
      log: (l) => lines.push(l),
    });
    expect(report.ok).toBe(true);
    expect(report.files).toHaveLength(1);
    expect(report.files[0]).toMatchObject({ dataset: 'contracts', year: 2024, status: 'imported', rows_read: 50 });
    expect(report.files[0].inserted).toBe(report.files[0].accepted);
    expect(server.requests.filter((r) => r.startsWith('/files/'))).toEqual([
      '/files/contratos2024.zip',
      '/files/contratos2024.zip',
    ]);
    expect(lines.join('\n')).toMatch(/BASE contracts 2024 \(0\.\d MB\): 50 rows, \d+ accepted/);
    const stored = (await store.listContracts({}, { limit: 1000 })).length;
    expect(stored).toBe(report.files[0].accepted);

    const again = await syncBase(store, {
      client: client(),
      baseUrl: `${server.url}/api/1/datasets`,
      since: '2024',
      now: NOW,
    });
    expect(again.files[0]).toMatchObject({ inserted: 0, updated: 0, unchanged: report.files[0].accepted });
  });

  it('writes nothing of a file whose connection drops every time', async () => {
    server = await startReplayServer((url): Reply => {
      if (url.pathname.startsWith('/api/1/datasets/'))
        return { body: datasetAnswer(server?.url ?? '', url.pathname.split('/')[4]) };
      return { drop: true, body: CONTRACTS_ZIP };
    });
    const store = await freshStore();
    const report = await syncBase(store, {
      client: client(),
      baseUrl: `${server.url}/api/1/datasets`,
      since: '2024',
      now: NOW,
    });
    expect(report.ok).toBe(false);
    expect(report.files[0]).toMatchObject({ dataset: 'contracts', year: 2024, status: 'failed' });
    expect(await store.listContracts({}, { limit: 10 })).toEqual([]);
  });
});

/** A loopback port nothing listens on: one the system handed out and took back. */
async function unusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A host name that never resolves (RFC 6761 reserves `.invalid`): no request leaves the machine. */
const NOWHERE = 'http://munidata-sync.invalid';

describe('a host that cannot be resolved or reached', () => {
  // The client's own defaults (5 retries, waits from 1 s): before, each indicator took half a minute to give up.
  const stopsAtFirstRequest =
    'stops sync ine at its first request, naming the address, with no retry and no other indicator asked';
  it(stopsAtFirstRequest, async () => {
    const store = await demoStore();
    const keys = [...readIneMappings()].filter(([, m]) => m.ine_varcd !== null).map(([key]) => key);
    expect(keys.length).toBeGreaterThan(2);
    const lines: string[] = [];
    const started = Date.now();
    const report = await syncIne(store, {
      client: new PoliteClient({ log: (l) => lines.push(l) }),
      baseUrl: NOWHERE,
      now: NOW,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.ok).toBe(false);
    expect(report.requests).toBe(1);
    expect(report.indicators).toHaveLength(1);
    expect(report.indicators[0].error).toMatch(
      new RegExp(
        String.raw`^http:\/\/munidata-sync\.invalid\/ine\/json_indicador\/pindica\.jsp\?.*: ` +
          String.raw`cannot reach munidata-sync\.invalid: .*resolve`,
      ),
    );
    expect(report.stopped).toBe(report.indicators[0].error);
    expect(report.not_tried).toEqual(keys.slice(1));
    expect(lines.join('\n')).not.toMatch(/retry/);
  }, 20_000);

  it('stops sync base when the connection is refused, naming the address and port', async () => {
    const port = await unusedPort();
    const store = await freshStore();
    const started = Date.now();
    const report = await syncBase(store, {
      client: new PoliteClient(),
      baseUrl: `http://127.0.0.1:${port}/api/1/datasets`,
      now: NOW,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(report.ok).toBe(false);
    expect(report.requests).toBe(1);
    expect(report.files).toHaveLength(1);
    expect(report.stopped).toMatch(
      new RegExp(
        `cannot reach 127\\.0\\.0\\.1:${port}: the connection was refused.*ECONNREFUSED 127\\.0\\.0\\.1:${port}`,
      ),
    );
    expect(report.not_tried).toEqual(['announcements', 'amendments']);
  }, 20_000);

  const retriesLaterOrDropped =
    'still retries a server that answers "later" or drops the connection, and fails at once on a refusal';
  it(retriesLaterOrDropped, async () => {
    server = await startReplayServer(
      (_url, n): Reply =>
        n === 1 ? { status: 503 } : n === 2 ? { drop: true, body: 'x'.repeat(100) } : { status: 404 },
    );
    const fetching = client().get(`${server.url}/file`);
    await expect(fetching).rejects.toThrow(/HTTP 404/);
    expect(server.requests).toHaveLength(3);
  });
});
