/**
 * The tables of `munidata export` (export-command.ts): every table a plan may read, whole (docs/data.md, Exporting).
 * The tables are the service's datasets (core/datasets.ts, the same the bulk download serves) of the plan's data
 * domains, each answered by its operation's own handler, page after page, and written in the columns of its CSV form
 * (core/csv.ts) — so an export holds what the API serves that plan, in the same shape (Parquet: typed columns of the
 * same cells, export-parquet.ts).
 */
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Caller } from '../access/caller.js';
import { DatasetFiles, fileChunks } from '../core/dataset-files.js';
import { type Dataset, type DatasetReadContext, datasetPages } from '../core/datasets.js';
import { ReferenceCache } from '../core/reference.js';
import { AdminError } from '../lib/admin-error.js';
import { SCOPES } from '../lib/domains.js';
import { createRegistry } from '../operations/index.js';
import type { Store } from '../store/store.js';
import type { ExportFormat } from './export-command.js';
import { writeParquetFile } from './export-parquet.js';

export interface ExportedTable {
  readonly table: string;
  readonly operation: string;
  readonly rows: number;
  readonly file: string;
}

export async function exportTables(
  store: Store,
  options: { dir: string; format: ExportFormat; plan: string },
): Promise<ExportedTable[]> {
  const plan = await store.getPlan(options.plan);
  if (!plan) throw new AdminError(`no plan "${options.plan}"; munidata plans list shows them`);
  const now = new Date();
  // The plan's reader: every scope, in the beta group; the plan's domains decide the tables, its values what they hold.
  const caller: Caller = {
    keyId: 0,
    scopes: SCOPES,
    account: { id: 0, name: 'export', plan_code: plan.code, beta: true, created_at: now.toISOString() },
    plan,
  };
  const files = new DatasetFiles(createRegistry().all);
  const ctx: DatasetReadContext = {
    caller,
    store,
    reference: await new ReferenceCache(store).current(now.getTime()),
    now,
    baseUrl: '',
    usage: async () => ({ used: 0, period: { start: '', end: '' } }),
    datasets: files,
  };
  const datasets = files.all.filter((d) => d.operation.domain !== null && plan.domains.includes(d.operation.domain));

  mkdirSync(options.dir, { recursive: true });
  const sqlitePath = join(options.dir, 'munidata-export.sqlite');
  if (options.format === 'sqlite') rmSync(sqlitePath, { force: true });
  const db = options.format === 'sqlite' ? new Database(sqlitePath) : undefined;
  const written: ExportedTable[] = [];
  try {
    for (const dataset of datasets) {
      const file = db ? sqlitePath : join(options.dir, `${dataset.name}.${options.format}`);
      const rows = db
        ? await writeSqliteTable(db, dataset, ctx)
        : options.format === 'parquet'
          ? await writeParquetFile(file, dataset, ctx)
          : await writeCsvFile(file, dataset, ctx);
      written.push({ table: dataset.name, operation: dataset.operation.name, rows, file });
    }
  } finally {
    db?.close();
  }
  return written;
}

/** The dataset as one CSV file, written page by page as the bulk download makes it; its row count. */
async function writeCsvFile(file: string, dataset: Dataset, ctx: DatasetReadContext): Promise<number> {
  const fd = openSync(file, 'w');
  let rows = 0;
  try {
    for await (const chunk of fileChunks(dataset, ctx, ['rfc4180'])) {
      writeSync(fd, chunk.bytes[0]);
      rows += chunk.rows.length;
    }
  } finally {
    closeSync(fd);
  }
  return rows;
}

/** One table of text columns named as the CSV's, filled page by page with the CSV's cells; its row count. */
async function writeSqliteTable(db: Database.Database, dataset: Dataset, ctx: DatasetReadContext): Promise<number> {
  const name = dataset.name;
  const columns = [...dataset.leading, ...dataset.table.columns];
  const quoted = columns.map((c) => `"${c.replaceAll('"', '""')}"`);
  db.exec(`DROP TABLE IF EXISTS "${name}"; CREATE TABLE "${name}" (${quoted.map((c) => `${c} TEXT`).join(', ')})`);
  const insert = db.prepare(`INSERT INTO "${name}" VALUES (${columns.map(() => '?').join(', ')})`);
  let rows = 0;
  // One transaction for the table, open across the reads (the file is this command's alone): a commit per page
  // would cost a sync of the file each.
  db.exec('BEGIN');
  try {
    for await (const page of datasetPages(dataset, ctx)) {
      for (const record of dataset.table.cells(page.items, page.leading)) insert.run(record);
      rows += page.items.length;
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return rows;
}
