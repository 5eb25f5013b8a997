/**
 * `munidata export`: every table a plan may read, whole, in the columns of the API's CSV (docs/data.md,
 * Exporting). Checked against the API itself: the same rows as paging through each list, the same series points.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportTables } from '../src/cli/export-tables.js';
import { csvCells } from './helpers/csv-cells.js';
import { testDir } from './helpers/temp-dir.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const lines = (file: string) => readFileSync(file, 'utf8').split('\r\n').filter(Boolean);

describe('export', () => {
  it('writes one CSV per table of the premium plan, each the whole list the API pages through', async () => {
    const dir = testDir('munidata-export-');
    const tables = await exportTables(t.store, { dir, format: 'csv', plan: 'premium' });
    const names = tables.map((x) => x.table);
    for (const name of [
      'indicators',
      'municipalities',
      'observations',
      'contracts',
      'entities',
      'signals',
      'signal_cases',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(names).not.toContain('alert_rules');
    const municipalities = lines(join(dir, 'municipalities.csv'));
    expect(municipalities).toHaveLength(309);
    const contracts = tables.find((x) => x.table === 'contracts');
    const viaApi = await collectPages(t, '/v1/procurement/contracts?limit=200');
    expect(contracts?.rows).toBe(viaApi.length);
    const header = (await t.get('/v1/procurement/contracts?limit=1&format=csv')).body.split('\r\n')[0];
    expect(lines(join(dir, 'contracts.csv'))[0]).toBe(header);
    // Every series point of every municipality, each naming its indicator: Porto's population, as the API serves it.
    const porto = await collectPages(t, '/v1/indicators/population/series?municipality=porto&limit=200');
    const observations = lines(join(dir, 'observations.csv'));
    expect(observations[0]).toBe('indicator,municipality,reference_date,value,treatment,synthetic');
    const portoPopulation = observations.filter((l) => l.startsWith('population,1312,'));
    expect(portoPopulation.length).toBeGreaterThan(0);
    expect(portoPopulation.map((l) => l.split(',')[2])).toEqual(porto.map((p) => p.reference_date));
    expect(observations.length - 1).toBe(tables.find((x) => x.table === 'observations')?.rows);
    // The aggregate of the demo's contracts says on every row that it is generated, as its JSON answer does.
    const [aggregateHeader, ...groups] = csvCells(readFileSync(join(dir, 'aggregate.csv'), 'utf8'));
    const synthetic = aggregateHeader.indexOf('synthetic');
    expect(synthetic).toBeGreaterThan(-1);
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.map((g) => g[synthetic])).toEqual(groups.map(() => 'true'));
  }, 120_000);

  it('writes the same tables into one SQLite file, codes kept as text', async () => {
    const dir = testDir('munidata-export-');
    const tables = await exportTables(t.store, { dir, format: 'sqlite', plan: 'premium' });
    const db = new Database(join(dir, 'munidata-export.sqlite'), { readonly: true });
    try {
      for (const table of tables) {
        expect((db.prepare(`SELECT count(*) AS n FROM "${table.table}"`).get() as { n: number }).n, table.table).toBe(
          table.rows,
        );
      }
      expect(db.prepare('SELECT code, name FROM municipalities WHERE code = ?').get('0101')).toEqual({
        code: '0101',
        name: 'Águeda',
      });
    } finally {
      db.close();
    }
  }, 120_000);

  it('writes the same tables as Parquet files, typed columns holding the CSV export cell for cell', async () => {
    const csvDir = testDir('munidata-export-');
    const parquetDir = testDir('munidata-export-');
    const csv = await exportTables(t.store, { dir: csvDir, format: 'csv', plan: 'premium' });
    const parquet = await exportTables(t.store, { dir: parquetDir, format: 'parquet', plan: 'premium' });
    expect(parquet.map((x) => [x.table, x.rows])).toEqual(csv.map((x) => [x.table, x.rows]));
    for (const table of parquet) {
      expect(table.file).toBe(join(parquetDir, `${table.table}.parquet`));
      const [header, ...rows] = csvCells(readFileSync(join(csvDir, `${table.table}.csv`), 'utf8'));
      const file = await asyncBufferFromFile(table.file);
      const metadata = await parquetMetadataAsync(file);
      expect(
        metadata.schema.slice(1).map((c) => c.name),
        table.table,
      ).toEqual(header);
      expect(Number(metadata.num_rows), table.table).toBe(rows.length);
      const read = await parquetReadObjects({ file });
      // Each value as the CSV writes it: a number as JSON writes it, a boolean as true/false, a null as an empty field.
      const asCells = read.map((row) => header.map((name) => cellOf(row[name as string])));
      expect(asCells, table.table).toEqual(rows);
    }
    // The types a reader gets: numbers as numbers, the synthetic flag a boolean, codes as text with their leading
    // zeros.
    const types = async (name: string) => {
      const metadata = await parquetMetadataAsync(await asyncBufferFromFile(join(parquetDir, `${name}.parquet`)));
      return Object.fromEntries(metadata.schema.slice(1).map((c) => [c.name, c.converted_type ?? c.type]));
    };
    const observations = await types('observations');
    expect(observations).toMatchObject({
      indicator: 'UTF8',
      municipality: 'UTF8',
      value: 'DOUBLE',
      synthetic: 'BOOLEAN',
    });
    const municipalities = await parquetReadObjects({
      file: await asyncBufferFromFile(join(parquetDir, 'municipalities.parquet')),
    });
    expect(municipalities.find((m) => m.code === '0101')).toMatchObject({ code: '0101', name: 'Águeda' });
    const contracts = await types('contracts');
    expect(Object.values(contracts)).toContain('DOUBLE');
    expect(contracts.synthetic).toBe('BOOLEAN');
    expect((await types('aggregate')).synthetic).toBe('BOOLEAN');
  }, 240_000);

  it('leaves out the domains a plan lacks', async () => {
    const plans = await t.store.listPlans();
    const withoutProcurement = plans.find((p) => !p.domains.includes('procurement'));
    if (!withoutProcurement) throw new Error('every default plan has procurement: the test needs one without');
    const tables = await exportTables(t.store, {
      dir: testDir('munidata-export-'),
      format: 'csv',
      plan: withoutProcurement.code,
    });
    expect(tables.map((x) => x.table)).not.toContain('contracts');
  }, 120_000);
});

/** A value read from Parquet as core/csv.ts writes its cell. */
function cellOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return String(value); // numbers as JSON writes them, bigints, booleans as true/false
}
