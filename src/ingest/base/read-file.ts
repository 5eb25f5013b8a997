/**
 * A BASE file → its records, each with where it is in the file. Field names are matched loosely (case, accents
 * and punctuation ignored: `idContrato` = `idcontrato`, `IdIncm` = `idINCM`) so the JSON files, the API and
 * spreadsheet exports all read alike.
 *
 * JSON: an array of records (the dados.gov.pt files, the sample), an object holding one such array, a single
 * record, or JSON Lines (one record per line). `line` is the physical line where the record starts.
 * CSV: RFC 4180, header row, `;`, `,` or tab as delimiter (whichever the header line uses most), UTF-8 with or
 * without BOM. `line` is the physical line where the record starts (the header is line 1); a quoted value may
 * span lines.
 */

import { fold } from '../../lib/text-match.js';
import { memoByText } from '../../lib/text-memo.js';

export type BaseFormat = 'json' | 'csv';

export interface RawRecord {
  /** Physical line of the file where the record starts (1-based). */
  line: number;
  /** Position of the record among the file's records (1-based). */
  record: number;
  /** Field values by loose key (see fieldKey). */
  values: Map<string, unknown>;
  /** A problem with the record's shape (CSV: wrong number of fields); such a record is rejected whole. */
  problem: string | null;
}

export interface ParsedFile {
  format: BaseFormat;
  /** CSV: the delimiter found. */
  delimiter: string | null;
  /** Loose keys of the fields the file has (CSV: the header; JSON: the union over the records). */
  fields: Set<string>;
  /** The same fields as the file spells them (for messages). */
  fieldNames: string[];
  records: RawRecord[];
}

/** Something about the whole file that makes it unreadable: the import stops before touching the store. */
export class BaseFileError extends Error {
  override name = 'BaseFileError';
}

/**
 * A field name's loose key. Kept by name: a file spells its few dozen names on every record, and the readers ask for
 * each field of each record again (5 % of the real import, folding the same names).
 */
export const fieldKey = memoByText((name: string): string => fold(name).replace(/[^a-z0-9]/g, ''));

/** Bytes → text: UTF-8 when the bytes are UTF-8, else Windows-1252 (spreadsheets saved on Portuguese Windows). */
export function decodeText(input: string | Uint8Array): string {
  if (typeof input === 'string') return input;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input);
  } catch {
    return new TextDecoder('windows-1252').decode(input);
  }
}

export function readBaseFile(input: string | Uint8Array, format: BaseFormat): ParsedFile {
  const textContent = decodeText(input).replace(/^\uFEFF/, '');
  return format === 'json' ? readJson(textContent) : readCsv(textContent);
}

// ---------------------------------------------------------------------------------------------------- JSON

function readJson(content: string): ParsedFile {
  if (content.trim() === '') throw new BaseFileError('the file is empty');
  let parsed: unknown;
  let lines: number[];
  try {
    parsed = JSON.parse(content);
    lines = elementLines(content);
  } catch (error) {
    const jsonLines = readJsonLines(content);
    if (!jsonLines)
      throw new BaseFileError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
    return jsonLines;
  }
  let list: unknown[];
  if (Array.isArray(parsed)) list = parsed;
  else if (isObject(parsed)) {
    const arrays = Object.values(parsed).filter((v): v is unknown[] => Array.isArray(v) && v.every(isObject));
    const nested = arrays.length === 1 && !looksLikeRecord(parsed) ? arrays[0] : null;
    if (nested) {
      list = nested;
      lines = nestedLines(content, nested.length);
    } else {
      list = [parsed];
      lines = [firstLineOf(content)];
    }
  } else throw new BaseFileError('the JSON holds neither records nor an array of records');
  const records = list.map((item, i) => toRecord(item, lines[i] ?? i + 1, i + 1));
  return { format: 'json', delimiter: null, ...unionOfFields(list), records };
}

function readJsonLines(content: string): ParsedFile | null {
  const records: RawRecord[] = [];
  const items: unknown[] = [];
  const rows = content.split(/\r\n|\n|\r/);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i].trim();
    if (!row) continue;
    let item: unknown;
    try {
      item = JSON.parse(row);
    } catch {
      return null;
    }
    if (!isObject(item)) return null;
    records.push(toRecord(item, i + 1, records.length + 1));
    items.push(item);
  }
  if (records.length < 2) return null; // one line that is not JSON is not JSON Lines either
  return { format: 'json', delimiter: null, ...unionOfFields(items), records };
}

function toRecord(item: unknown, line: number, record: number): RawRecord {
  if (!isObject(item)) return { line, record, values: new Map(), problem: 'the record is not a JSON object' };
  const values = new Map<string, unknown>();
  for (const [name, value] of Object.entries(item)) {
    const key = fieldKey(name);
    if (!values.has(key) || values.get(key) === null || values.get(key) === '') values.set(key, value);
  }
  return { line, record, values, problem: null };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function looksLikeRecord(o: Record<string, unknown>): boolean {
  const keys = new Set(Object.keys(o).map(fieldKey));
  return ['idcontrato', 'nanuncio'].some((k) => keys.has(k));
}

function unionOfFields(items: readonly unknown[]): { fields: Set<string>; fieldNames: string[] } {
  const fields = new Set<string>();
  const fieldNames: string[] = [];
  for (const item of items) {
    if (!isObject(item)) continue;
    for (const name of Object.keys(item)) {
      const key = fieldKey(name);
      if (fields.has(key)) continue;
      fields.add(key);
      fieldNames.push(name);
    }
  }
  return { fields, fieldNames };
}

/**
 * The line on which each element of the top-level array starts. A scan that knows strings and nesting depth:
 * JSON.parse has already accepted the text, so the scan does not need to validate it.
 */
function elementLines(content: string, elementDepth = 1): number[] {
  const lines: number[] = [];
  let line = 1;
  let depth = 0;
  let inString = false;
  let expectingElement = false;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (c === '\n') {
      line++;
      continue;
    }
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') continue;
    if (expectingElement && depth === elementDepth && c !== ']') {
      lines.push(line);
      expectingElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === elementDepth && c === '[') expectingElement = true;
    } else if (c === ']' || c === '}') {
      depth--;
      expectingElement = false;
    } else if (c === ',' && depth === elementDepth) expectingElement = true;
  }
  return lines;
}

/** Lines of the elements of the one array nested in a top-level object (depth 2). */
function nestedLines(content: string, count: number): number[] {
  const lines = elementLines(content, 2);
  return lines.length === count ? lines : [];
}

function firstLineOf(content: string): number {
  const before = content.slice(0, content.search(/\S/));
  return before.split('\n').length;
}

// ----------------------------------------------------------------------------------------------------- CSV

function readCsv(content: string): ParsedFile {
  if (content.trim() === '') throw new BaseFileError('the file is empty');
  const delimiter = detectDelimiter(content);
  const rows = csvRows(content, delimiter);
  const headerRow = rows.shift();
  if (!headerRow || headerRow.cells.every((c) => c.trim() === ''))
    throw new BaseFileError('the CSV file has no header row');
  const header = headerRow.cells.map((h) => fieldKey(h));
  const seen = new Set<string>();
  for (const [i, key] of header.entries()) {
    if (key === '') throw new BaseFileError(`the CSV header has an empty column name (column ${i + 1})`);
    if (seen.has(key)) throw new BaseFileError(`the CSV header names "${headerRow.cells[i].trim()}" twice`);
    seen.add(key);
  }
  const records: RawRecord[] = [];
  for (const row of rows) {
    if (row.cells.length === 1 && row.cells[0].trim() === '') continue; // a blank line
    const values = new Map<string, unknown>();
    for (const [i, key] of header.entries()) values.set(key, row.cells[i] ?? '');
    // Trailing empty cells are sometimes left out by spreadsheet exports: tolerated. Extra non-empty cells are not.
    const extra = row.cells.slice(header.length).some((c) => c.trim() !== '');
    const problem = extra ? `the row has ${row.cells.length} fields, the header ${header.length}` : null;
    records.push({ line: row.line, record: records.length + 1, values, problem });
  }
  return {
    format: 'csv',
    delimiter,
    fields: new Set(header),
    fieldNames: headerRow.cells.map((h) => h.trim()),
    records,
  };
}

function detectDelimiter(content: string): string {
  const headerLine = content.slice(0, content.search(/\r|\n|$/));
  const count = (d: string) => headerLine.split(d).length - 1;
  const candidates = [';', ',', '\t'].map((d) => ({ d, n: count(d) })).sort((a, b) => b.n - a.n);
  return candidates[0].n > 0 ? candidates[0].d : ',';
}

interface CsvRow {
  line: number;
  cells: string[];
}

function csvRows(content: string, delimiter: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let cells: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowStart = 1;
  let quoteOpenedAt = 0;
  for (let i = 0; i < content.length; i++) {
    const c = content[i];
    if (quoted) {
      if (c === '"' && content[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n' || (c === '\r' && content[i + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"' && field.trim() === '') {
      quoted = true;
      quoteOpenedAt = line;
      field = '';
    } else if (c === delimiter) {
      cells.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && content[i + 1] === '\n') i++;
      cells.push(field);
      rows.push({ line: rowStart, cells });
      cells = [];
      field = '';
      line++;
      rowStart = line;
    } else field += c;
  }
  if (quoted) throw new BaseFileError(`a quoted value opened on line ${quoteOpenedAt} is never closed`);
  if (field !== '' || cells.length > 0) {
    cells.push(field);
    rows.push({ line: rowStart, cells });
  }
  return rows;
}
