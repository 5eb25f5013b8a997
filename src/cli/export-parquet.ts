/**
 * One dataset as one Parquet file, for `munidata export --format parquet` (docs/data.md, Exporting). The columns
 * are the CSV form's (core/csv.ts), typed after the operation's schema: a number is a DOUBLE, an integer an INT64,
 * a boolean (`synthetic`) a BOOLEAN, and the rest UTF8 text as the CSV writes it (dates, codes with their leading
 * zeros, lists joined by `|`, JSON); every column is OPTIONAL, so a null stays a null and `""` an empty string.
 * The values are the CSV's cells read back into their type, so the two files hold the same table.
 *
 * Written with hyparquet-writer (docs/data.md says why that library): rows are gathered page after page into row
 * groups of ROW_GROUP_ROWS, each written to the file as it fills, so a table is never held whole in memory.
 */
import type { SchemaElement } from 'hyparquet-writer';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { Cell, ColumnKind } from '../core/csv.js';
import { type Dataset, type DatasetReadContext, datasetPages } from '../core/datasets.js';

/** Rows per row group: large enough for a column's values to compress and be skipped together, small enough to hold. */
const ROW_GROUP_ROWS = 50_000;

/** A number as JSON (and so the CSV) writes it; `Number` alone would read `""` and `" "` as 0. */
const JSON_NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

type Value = string | number | bigint | boolean | null;

/** The dataset as one Parquet file, written row group by row group; its row count. */
export async function writeParquetFile(file: string, dataset: Dataset, ctx: DatasetReadContext): Promise<number> {
  const names = [...dataset.leading, ...dataset.table.columns];
  const kinds: ColumnKind[] = [...dataset.leading.map(() => 'text' as const), ...dataset.table.kinds];
  const writer = new ParquetWriter({
    writer: fileWriter(file),
    schema: schemaOf(names, kinds),
    createdBy: 'munidata export',
  });
  let group: Value[][] = names.map(() => []);
  let grouped = 0;
  let rows = 0;
  const flush = async () => {
    if (grouped === 0) return;
    const columnData = names.map((name, i) => ({ name, data: group[i] }));
    await writer.write({ columnData, rowGroupSize: grouped });
    group = names.map(() => []);
    grouped = 0;
  };
  for await (const page of datasetPages(dataset, ctx)) {
    for (const cells of dataset.table.cells(page.items, page.leading)) {
      for (let i = 0; i < cells.length; i++) group[i].push(typedValue(cells[i], kinds[i], dataset.name, names[i]));
      grouped++;
      if (grouped === ROW_GROUP_ROWS) await flush();
    }
    rows += page.items.length;
  }
  await flush();
  await writer.finish();
  return rows;
}

/** The Parquet type of each kind of column. */
const PARQUET_TYPES = {
  integer: { type: 'INT64' },
  number: { type: 'DOUBLE' },
  boolean: { type: 'BOOLEAN' },
  text: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
} as const satisfies Record<ColumnKind, Pick<SchemaElement, 'type' | 'converted_type'>>;

/** The file's schema: a root and one OPTIONAL leaf per column. */
function schemaOf(names: readonly string[], kinds: readonly ColumnKind[]): SchemaElement[] {
  const leaves = names.map(
    (name, i): SchemaElement => ({ name, ...PARQUET_TYPES[kinds[i]], repetition_type: 'OPTIONAL' }),
  );
  return [{ name: 'root', num_children: leaves.length }, ...leaves];
}

/** A CSV cell read back into its column's type; a cell its schema's type cannot read is an error, not a guess. */
function typedValue(cell: Cell, kind: ColumnKind, table: string, column: string): Value {
  if (cell === null || kind === 'text') return cell;
  if (kind === 'boolean' && (cell === 'true' || cell === 'false')) return cell === 'true';
  if (kind === 'number' && JSON_NUMBER.test(cell)) return Number(cell);
  if (kind === 'integer' && /^-?\d+$/.test(cell)) return BigInt(cell);
  throw new Error(`${table}.${column}: "${cell}" is not the ${kind} its schema says`);
}
