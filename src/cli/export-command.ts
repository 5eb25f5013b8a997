/**
 * `munidata export --format csv|sqlite [--plan CODE] DIR`: every table a plan may read, whole, for analysts who
 * want the data rather than the API (docs/data.md, Exporting). The tables are the registry's list operations of
 * the plan's data domains that need no argument (contracts, entities, signals…), plus every indicator's series,
 * each answered by the operation's own handler, page after page, and written in the columns of its CSV form
 * (core/csv.ts) — so an export holds what the API serves that plan, in the same shape. Account data (alert rules
 * and matches) is not exported. Parquet is not offered: docs/data.md says why.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TObject } from '@sinclair/typebox';
import Database from 'better-sqlite3';
import type { Command } from 'commander';
import type { PageResult, Paging } from '../core/context.js';
import { csvTable } from '../core/csv.js';
import type { AnyOperation } from '../core/operation.js';
import { ReferenceCache } from '../core/reference.js';
import { validateInput } from '../core/validate.js';
import { AdminError } from '../lib/admin-error.js';
import { createRegistry } from '../operations/index.js';
import type { Store } from '../store/store.js';
import type { CliContext } from './context.js';
import { print } from './output.js';

const PAGE = 200;
/** The caller-specific operations: an export is of data, not of an account. */
const NOT_DATA = new Set(['alert_rules', 'alert_matches']);

export interface ExportedTable {
  readonly table: string;
  readonly operation: string;
  readonly rows: number;
  readonly file: string;
}

export function registerExportCommand(program: Command, cli: CliContext): void {
  program
    .command('export')
    .description('Write every table a plan may read (default premium) to DIR, as CSV files or one SQLite file')
    .argument('<dir>', 'the folder to write into (created if missing)')
    .option('--format <format>', 'csv or sqlite', 'csv')
    .option('--plan <code>', 'the plan whose data domains and values to export', 'premium')
    .action((dir: string, o: { format: string; plan: string }) => {
      if (o.format !== 'csv' && o.format !== 'sqlite') {
        throw new AdminError(`--format must be csv or sqlite, not "${o.format}" (parquet is not offered: docs/data.md, Exporting)`);
      }
      return cli.withStore(async (store) => {
        const tables = await exportTables(store, { dir, format: o.format as 'csv' | 'sqlite', plan: o.plan });
        print(cli.json(), { dir, format: o.format, plan: o.plan, tables }, () =>
          tables.map((t) => `${t.table}: ${t.rows} rows → ${t.file}`).join('\n'),
        );
      });
    });
}

export async function exportTables(
  store: Store,
  options: { dir: string; format: 'csv' | 'sqlite'; plan: string },
): Promise<ExportedTable[]> {
  const plan = await store.getPlan(options.plan);
  if (!plan) throw new AdminError(`no plan "${options.plan}"; munidata plans list shows them`);
  const reference = await new ReferenceCache(store).current(Date.now());
  const caller = {
    keyId: 0,
    scopes: ['indicators:read', 'signals:read', 'procurement:read', 'alerts:read'] as never,
    account: { id: 0, name: 'export', plan_code: plan.code, beta: true, created_at: new Date().toISOString() } as never,
    plan,
  };
  const operations = createRegistry().all.filter(
    (op) =>
      op.domain !== null && plan.domains.includes(op.domain) && !NOT_DATA.has(op.name) && csvTable(op.output, op.csvRows) !== undefined,
  );
  const tables: { name: string; op: AnyOperation; inputs: Record<string, unknown>[] }[] = [];
  for (const op of operations) {
    if (op.name === 'indicators_series') {
      // Every indicator's series for every municipality, 50 municipalities a request (the operation's maximum).
      const codes = reference.municipalities.map((m) => m.code);
      const inputs = reference.indicators.flatMap((i) =>
        Array.from({ length: Math.ceil(codes.length / 50) }, (_, k) => ({ key: i.key, municipality: codes.slice(k * 50, k * 50 + 50) })),
      );
      tables.push({ name: 'observations', op, inputs });
    } else if (!hasRequiredInput(op)) {
      tables.push({ name: op.name.replace(/^procurement_|_list$|_search$/g, ''), op, inputs: [{}] });
    }
  }

  mkdirSync(options.dir, { recursive: true });
  const sqlitePath = join(options.dir, 'munidata-export.sqlite');
  if (options.format === 'sqlite') rmSync(sqlitePath, { force: true });
  const db = options.format === 'sqlite' ? new Database(sqlitePath) : undefined;
  const written: ExportedTable[] = [];
  try {
    for (const { name, op, inputs } of tables) {
      const table = csvTable(op.output, op.csvRows);
      if (!table) continue;
      const rows: unknown[] = [];
      for (const input of inputs) rows.push(...(await allRows(op, input, { caller, store, reference })));
      if (db) {
        writeSqliteTable(db, name, table.columns, table.render(rows));
        written.push({ table: name, operation: op.name, rows: rows.length, file: sqlitePath });
      } else {
        const file = join(options.dir, `${name}.csv`);
        writeFileSync(file, table.render(rows));
        written.push({ table: name, operation: op.name, rows: rows.length, file });
      }
    }
  } finally {
    db?.close();
  }
  return written;
}

function hasRequiredInput(op: AnyOperation): boolean {
  return ((op.input as TObject).required ?? []).length > 0;
}

/** Every item the operation answers for this input, page after page, as its handler gives them. */
async function allRows(
  op: AnyOperation,
  given: Record<string, unknown>,
  deps: { caller: never | object; store: Store; reference: Awaited<ReturnType<ReferenceCache['current']>> },
): Promise<unknown[]> {
  const rows: unknown[] = [];
  let after: unknown;
  for (;;) {
    const input: Record<string, unknown> = { ...given };
    if ((op.input as TObject).properties?.limit) input.limit = limitOf(op);
    validateInput(op.input as TObject, input, 'json');
    let next: unknown;
    const paging: Paging = {
      limit: (input.limit as number | undefined) ?? PAGE,
      after,
      page<T>(items: T[], positionOf: (row: T) => unknown): PageResult<T> {
        const limit = (input.limit as number | undefined) ?? PAGE;
        if (items.length <= limit) return { items, next_cursor: null, has_more: false };
        const kept = items.slice(0, limit);
        next = positionOf(kept[kept.length - 1]);
        return { items: kept, next_cursor: 'next', has_more: true };
      },
    };
    const value = (await op.handler(input as never, {
      caller: deps.caller as never,
      store: deps.store,
      reference: deps.reference,
      paging,
      now: new Date(),
      baseUrl: '',
      usage: async () => ({ used: 0, period: { start: '', end: '' } }),
    })) as unknown;
    const items = Array.isArray(value) ? value : ((value as Record<string, unknown>)[op.csvRows ?? 'items'] as unknown[]);
    rows.push(...items);
    if (next === undefined) return rows;
    after = next;
  }
}

/** The largest page the operation takes. */
function limitOf(op: AnyOperation): number {
  const limit = ((op.input as TObject).properties?.limit ?? {}) as { maximum?: number };
  return limit.maximum ?? PAGE;
}

/** One table of text columns named as the CSV's, filled from the CSV just rendered (the same cells). */
function writeSqliteTable(db: Database.Database, name: string, columns: readonly string[], csv: string): void {
  const quoted = columns.map((c) => `"${c.replaceAll('"', '""')}"`);
  db.exec(`DROP TABLE IF EXISTS "${name}"; CREATE TABLE "${name}" (${quoted.map((c) => `${c} TEXT`).join(', ')})`);
  const insert = db.prepare(`INSERT INTO "${name}" VALUES (${columns.map(() => '?').join(', ')})`);
  const records = parseCsv(csv).slice(1);
  db.transaction(() => {
    for (const record of records) insert.run(record.map((cell) => (cell === null ? null : cell)));
  })();
}

/** RFC 4180 as core/csv.ts writes it: an empty unquoted field is null, `""` an empty string. */
function parseCsv(text: string): (string | null)[][] {
  const rows: (string | null)[][] = [];
  let row: (string | null)[] = [];
  let i = 0;
  while (i < text.length) {
    let value: string | null;
    if (text[i] === '"') {
      let v = '';
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else v += text[i++];
      }
      value = v;
    } else {
      let end = i;
      while (end < text.length && text[end] !== ',' && text[end] !== '\r') end++;
      value = end === i ? null : text.slice(i, end);
      i = end;
    }
    row.push(value);
    if (text[i] === ',') i++;
    else {
      i += 2; // CRLF
      rows.push(row);
      row = [];
    }
  }
  return rows;
}
