/**
 * The datasets the service offers whole: the tables `munidata export` writes and the files of the bulk download
 * (docs/data.md, Exporting; docs/api.md, Bulk download), derived from the registry so that both hold one thing.
 *
 * Each list operation of a data domain that needs no argument is one dataset: its every row, as its handler answers
 * the caller page after page, in the columns of its CSV form (csv.ts). The series of every indicator for every
 * municipality is one more, `observations`, with an `indicator` column first (a series answer does not name its
 * indicator: the request did). Answers that depend on who asks (alert rules and matches, `me`) are no dataset.
 */
import type { TObject } from '@sinclair/typebox';
import type { Domain } from '../lib/domains.js';
import { takeTurn } from '../lib/turns.js';
import { cutPage, type OperationContext, type PageResult, type Paging } from './context.js';
import { type Cell, type CsvTable, csvTable } from './csv.js';
import type { AnyOperation } from './operation.js';
import type { ReferenceData } from './reference.js';
import { MAX_LIMIT } from './schemas.js';
import { validateInput } from './validate.js';

/** The operation whose answers for every indicator and every municipality make the `observations` dataset. */
const SERIES_OPERATION = 'indicators_series';
/** How many municipalities one series request may name (the operation's maximum). */
const SERIES_MUNICIPALITIES = 50;

export interface Dataset {
  /** The file's and the table's name (`contracts`, `observations`). */
  readonly name: string;
  /** The list operation whose rows, filters and paging the dataset is the whole of. */
  readonly operation: AnyOperation;
  /** Its operation's data domain. */
  readonly domain: Domain;
  readonly table: CsvTable;
  /** Columns written before the operation's own, naming the input a row was answered for. */
  readonly leading: readonly string[];
  /** The inputs whose answers, each page after page, make the whole table; with their leading cells. */
  inputs(reference: ReferenceData): DatasetInput[];
}

export interface DatasetInput {
  readonly input: Record<string, unknown>;
  readonly leading: readonly Cell[];
}

/** One page of a dataset: the items the handler answered, and the leading cells of the input it answered. */
export interface DatasetPage {
  readonly items: readonly unknown[];
  readonly leading: readonly Cell[];
}

/** What reading a dataset needs: an operation's context for the caller it is read for, but its own paging. */
export type DatasetReadContext = Omit<OperationContext, 'paging'>;

/** The datasets of these operations, in their order. */
export function datasetsOf(operations: readonly AnyOperation[]): Dataset[] {
  const datasets: Dataset[] = [];
  for (const op of operations) {
    const domain = op.domain;
    if (domain === null || op.cache !== 'data') continue;
    const table = csvTable(op.output, op.csvRows);
    if (table === undefined) continue;
    if (op.name === SERIES_OPERATION) {
      datasets.push({
        name: 'observations',
        operation: op,
        domain,
        table,
        leading: ['indicator'],
        inputs: everySeries,
      });
    } else if (!hasRequiredInput(op)) {
      const inputs = () => [{ input: {}, leading: [] }];
      datasets.push({ name: tableName(op), operation: op, domain, table, leading: [], inputs });
    }
  }
  return datasets;
}

/** `procurement_contracts` → `contracts`, `signals_list` → `signals`, `municipalities_search` → `municipalities`. */
function tableName(op: AnyOperation): string {
  return op.name.replace(/^procurement_|_list$|_search$/g, '');
}

function hasRequiredInput(op: AnyOperation): boolean {
  return ((op.input as TObject).required ?? []).length > 0;
}

/** Every indicator's series for every municipality, as many municipalities a request as the operation takes. */
function everySeries(reference: ReferenceData): DatasetInput[] {
  const codes = reference.municipalities.map((m) => m.code);
  return reference.indicators.flatMap((indicator) =>
    Array.from({ length: Math.ceil(codes.length / SERIES_MUNICIPALITIES) }, (_, k) => ({
      input: {
        key: indicator.key,
        municipality: codes.slice(k * SERIES_MUNICIPALITIES, (k + 1) * SERIES_MUNICIPALITIES),
      },
      leading: [indicator.key],
    })),
  );
}

/**
 * Every page of the dataset, in order, as the operation's handler answers them for the context's caller: the
 * largest page it takes, each page starting after the last row of the one before (its keyset position, handed over
 * as it is: no cursor is signed, since none leaves the process).
 */
export async function* datasetPages(dataset: Dataset, ctx: DatasetReadContext): AsyncGenerator<DatasetPage> {
  const op = dataset.operation;
  const pageSize = largestPage(op);
  for (const { input: given, leading } of dataset.inputs(ctx.reference)) {
    let after: unknown;
    for (;;) {
      await takeTurn(); // a page a turn: a dataset never holds the event loop for more (../lib/turns.ts)
      const input: Record<string, unknown> = { ...given };
      if (pageSize !== undefined) input.limit = pageSize;
      validateInput(op.input as TObject, input, 'json');
      let next: unknown;
      const limit = (input.limit as number | undefined) ?? MAX_LIMIT;
      const paging: Paging = {
        limit,
        after,
        page<T>(rows: T[], positionOf: (row: T) => unknown): PageResult<T> {
          return cutPage(rows, limit, positionOf, (position) => {
            next = position;
            return 'next';
          });
        },
      };
      const value = (await op.handler(input as never, { ...ctx, paging })) as unknown;
      yield { items: dataset.table.answerRows(value), leading };
      if (next === undefined) break;
      after = next;
    }
  }
}

/** The largest page the operation takes; undefined when it is not paged. */
function largestPage(op: AnyOperation): number | undefined {
  const limit = (op.input as TObject).properties?.limit as { maximum?: number } | undefined;
  return limit === undefined ? undefined : (limit.maximum ?? MAX_LIMIT);
}
