/**
 * CSV answers of list endpoints (RFC 4180; IANA `text/csv` with `charset` and `header`), derived from the
 * operation's output schema (csv-columns.ts), never from the data, so columns are stable and an empty page still has
 * its header. A list endpoint's output is a page or a JSON array, one row per item; an answer that holds its rows
 * (the aggregate's `groups`) names that member as its `csvRows`, and when it says `synthetic` of itself and its rows
 * do not, each row carries the answer's flag in a last `synthetic` column (`answerRows`): every CSV form says what is
 * generated. Columns, values, quoting and the `excel-pt` dialect (`format=csv-excel`): docs/api.md, "CSV".
 */
import type { TSchema } from '@sinclair/typebox';
import {
  arrayOrLeafColumns,
  type Column,
  inheritsSynthetic,
  isObjectWithProperties,
  listItemSchema,
  member,
  objectColumns,
  type Schema,
  SYNTHETIC,
  withSynthetic,
} from './csv-columns.js';

export const CSV_MEDIA_TYPE = 'text/csv; charset=utf-8; header=present';

/** `rfc4180`: `,` and dot decimals; `excel-pt`: what EXCEL_PT_TRAITS says. */
export type CsvDialect = 'rfc4180' | 'excel-pt';

/** What `excel-pt` (`format=csv-excel`) changes, as the OpenAPI document and the bulk catalogue say it. */
export const EXCEL_PT_TRAITS =
  '`;` between fields, decimal comma, digits-only text as `="0101"`, text that would run as a formula behind `\'`, ' +
  'UTF-8 byte-order mark';

/** The `format` values of the CSV forms (docs/api.md, CSV) and the dialect each is written in. */
export const CSV_FORMAT_DIALECTS = { csv: 'rfc4180', 'csv-excel': 'excel-pt' } as const satisfies Record<
  string,
  CsvDialect
>;

/** The CSV form of one list operation's answers. */
export interface CsvTable {
  readonly columns: readonly string[];
  /** The rows of an answer, each as its columns read it (with the answer's own `synthetic` where it has one). */
  answerRows(value: unknown): unknown[];
  /** True when the item schema is an object with properties (else one `value` column holds each item). */
  readonly fromProperties: boolean;
  /** The whole answer: header row, then one row per item. */
  render(value: unknown, dialect?: CsvDialect): string;
  /**
   * The header row alone (after the byte-order mark in `excel-pt`), with `leading` columns first: a file that
   * gathers the answers of several inputs names the input in them (a bulk file's `indicator`, docs/api.md).
   */
  header(dialect?: CsvDialect, leading?: readonly string[]): string;
  /** The rows of these items, without the header; the `leading` cells (one per leading column) start every row. */
  rows(items: readonly unknown[], dialect?: CsvDialect, leading?: readonly Cell[]): string;
  /** What each column holds (in `columns` order), for a writer with typed columns (the Parquet export). */
  readonly kinds: readonly ColumnKind[];
  /** The same rows as `rows` writes in `rfc4180`, as cells before quoting (`null` is an empty field). */
  cells(items: readonly unknown[], leading?: readonly Cell[]): Cell[][];
}

/**
 * What a column's cells hold: a single number (`integer` when the schema says so), a boolean, or text (strings,
 * dates, joined lists, JSON). Its cells are the text of such a value, as JSON writes it.
 */
export type ColumnKind = 'integer' | 'number' | 'boolean' | 'text';

/** A cell's text before quoting; `null` is an empty unquoted field. */
export type Cell = string | null;

/**
 * The CSV table of an operation's output, or `undefined` when the operation is not a list endpoint. `rowsMember`
 * names the array member of a non-list answer whose elements are the rows (`groups`); default `items`.
 */
export function csvTable(output: TSchema, rowsMember = 'items'): CsvTable | undefined {
  const answer = JSON.parse(JSON.stringify(output)) as Schema;
  const listed = listItemSchema(answer, rowsMember);
  if (listed === undefined) return undefined;
  const inherits = inheritsSynthetic(answer, listed);
  const item = inherits ? withSynthetic(listed) : listed;
  const answerRows = (value: unknown): unknown[] => {
    const rows = rowsOf(value, rowsMember);
    if (!inherits) return rows;
    const synthetic = member(value, SYNTHETIC);
    return rows.map((row) => ({ ...(row as object), [SYNTHETIC]: synthetic }));
  };
  const fromProperties = isObjectWithProperties(item);
  const columns = fromProperties ? objectColumns(item, '') : arrayOrLeafColumns('value', item, (row) => row);
  const headerOf = (dialect: CsvDialect, leading: readonly string[] = []) => {
    const separator = separatorOf(dialect);
    const names = [...leading, ...columns.map((c) => c.name)];
    const bom = dialect === 'excel-pt' ? '\uFEFF' : '';
    return `${bom}${names.map((name) => field(name, separator)).join(separator)}\r\n`;
  };
  const headers = { rfc4180: headerOf('rfc4180'), 'excel-pt': headerOf('excel-pt') };
  const rowsText = (rows: readonly unknown[], dialect: CsvDialect, leading: readonly Cell[]): string => {
    const separator = separatorOf(dialect);
    const prefix = leading.map((cell) => `${field(cell, separator)}${separator}`).join('');
    const lines = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const cells = columns.map((c) => {
        const text = c.cell(row);
        return field(dialect === 'excel-pt' ? spreadsheetText(text, c) : text, separator);
      });
      lines[i] = `${prefix}${cells.join(separator)}\r\n`;
    }
    return lines.join('');
  };
  return {
    columns: columns.map((c) => c.name),
    answerRows,
    fromProperties,
    render(value: unknown, dialect: CsvDialect = 'rfc4180'): string {
      return headers[dialect] + rowsText(answerRows(value), dialect, []);
    },
    header(dialect: CsvDialect = 'rfc4180', leading: readonly string[] = []): string {
      return leading.length === 0 ? headers[dialect] : headerOf(dialect, leading);
    },
    rows(items: readonly unknown[], dialect: CsvDialect = 'rfc4180', leading: readonly Cell[] = []): string {
      return rowsText(items, dialect, leading);
    },
    kinds: columns.map((c) => c.kind),
    cells(items: readonly unknown[], leading: readonly Cell[] = []): Cell[][] {
      return items.map((row) => [...leading, ...columns.map((c) => c.cell(row))]);
    },
  };
}

/**
 * A cell as `excel-pt` writes it: a number with a decimal comma; a string of digits alone (a municipality code
 * `0101`, a tax number, a CPV code) as the formula `="0101"`, which a spreadsheet shows as that text, where it would
 * read the bare digits as a number and drop the leading zeros; any other text a spreadsheet would run as a formula
 * (it begins with `=`, `+`, `-`, `@`, a tab or a CR: a contract's object is whatever its buyer typed) behind an
 * apostrophe, so that it is shown and never run (docs/api.md, CSV).
 */
function spreadsheetText(text: Cell, column: Pick<Column, 'kind' | 'strings'>): Cell {
  if (text === null) return null;
  if (column.kind === 'number' || column.kind === 'integer') return text.replace('.', ',');
  if (column.strings && /^[0-9]+$/.test(text)) return `="${text}"`;
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

function separatorOf(dialect: CsvDialect): ',' | ';' {
  return dialect === 'excel-pt' ? ';' : ',';
}

/** The rows of an answer: the answer itself when it is an array, else its `rowsMember` array. */
function rowsOf(value: unknown, rowsMember: string): unknown[] {
  if (Array.isArray(value)) return value;
  const items = member(value, rowsMember);
  return Array.isArray(items) ? items : [];
}

/** RFC 4180 §2: quote a field holding the separator, a double quote, CR or LF, doubling the quotes inside. */
function field(text: Cell, separator: ',' | ';'): string {
  if (text === null) return '';
  if (text === '') return '""';
  const special = separator === ',' ? /[",\r\n]/ : /[";\r\n]/;
  return special.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
