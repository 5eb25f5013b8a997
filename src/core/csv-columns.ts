/** The columns of a list operation's CSV form, derived from its output schema (the rules atop csv.ts). */
import type { Cell, ColumnKind } from './csv.js';

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema | Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
};

export interface Column {
  readonly name: string;
  readonly cell: (item: unknown) => Cell;
  /** A single number or boolean (not a list); a `number` or `integer` is written with a decimal comma in `excel-pt`. */
  readonly kind: ColumnKind;
  /**
   * The schema types its values as strings (a string, or a list of strings): a cell of digits alone is text there (a
   * code, a tax number), which `excel-pt` keeps from turning into a number (csv.ts, `spreadsheetText`).
   */
  readonly strings: boolean;
}

/** The item schema of a page (`properties.items.items`), of an array output, or of the `rowsMember` array. */
export function listItemSchema(output: Schema, rowsMember: string): Schema | undefined {
  const schema = unwrap(output);
  if (isArraySchema(schema)) return elementSchema(schema);
  const items = schema.properties?.[rowsMember];
  if (items === undefined) return undefined;
  const array = unwrap(items);
  return isArraySchema(array) ? elementSchema(array) : undefined;
}

/** The flag of generated data (docs/data.md, Real and synthetic data). */
export const SYNTHETIC = 'synthetic';

/** An answer holding its rows (not itself a list) that says `synthetic` of itself, over rows that do not say it. */
export function inheritsSynthetic(answer: Schema, item: Schema): boolean {
  const outer = unwrap(answer);
  if (isArraySchema(outer) || outer.properties?.[SYNTHETIC] === undefined) return false;
  return isObjectWithProperties(item) && item.properties[SYNTHETIC] === undefined;
}

/** The item schema with the answer's `synthetic` as its last property. */
export function withSynthetic(item: Schema): Schema {
  return { ...item, properties: { ...item.properties, [SYNTHETIC]: { type: 'boolean' } } };
}

function elementSchema(array: Schema): Schema {
  return Array.isArray(array.items) || array.items === undefined ? {} : unwrap(array.items);
}

/** Drops `null` from a nullable schema and merges an `allOf` of objects; other unions are left as they are. */
function unwrap(schema: Schema): Schema {
  const union = schema.anyOf ?? schema.oneOf;
  if (union !== undefined) {
    const members = union.filter((m) => !(m.type === 'null' && Object.keys(m).length === 1));
    return members.length === 1 ? unwrap(members[0]) : schema;
  }
  if (schema.allOf !== undefined) {
    const parts = schema.allOf.map(unwrap);
    if (parts.every(isObjectWithProperties)) {
      return { type: 'object', properties: Object.assign({}, ...parts.map((p) => p.properties)) };
    }
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    if (types.length === 1) return { ...schema, type: types[0] };
  }
  return schema;
}

function isArraySchema(schema: Schema): boolean {
  return schema.type === 'array';
}

export function isObjectWithProperties(schema: Schema): schema is Schema & { properties: Record<string, Schema> } {
  return (
    (schema.type === 'object' || schema.type === undefined) &&
    schema.properties !== undefined &&
    Object.keys(schema.properties).length > 0
  );
}

/** The columns of an object schema, each reading its value from the row. */
export function objectColumns(schema: Schema & { properties: Record<string, Schema> }, prefix: string): Column[] {
  const columns: Column[] = [];
  for (const [name, property] of Object.entries(schema.properties)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    const at = (row: unknown) => member(row, name);
    const sub = unwrap(property);
    if (isObjectWithProperties(sub)) {
      for (const c of objectColumns(sub, path))
        columns.push({ name: c.name, cell: (row) => c.cell(at(row)), kind: c.kind, strings: c.strings });
    } else {
      columns.push(...arrayOrLeafColumns(path, sub, at));
    }
  }
  return columns;
}

export function arrayOrLeafColumns(path: string, schema: Schema, at: (row: unknown) => unknown): Column[] {
  if (!isArraySchema(schema)) return [{ ...leafColumn(path, at), kind: leafKind(schema), strings: isString(schema) }];
  const element = elementSchema(schema);
  if (isObjectWithProperties(element)) {
    // One column per property of the element, joining the elements' values in order.
    return objectColumns(element, path).map((c) => ({
      name: c.name,
      cell: (row) => joinList(at(row), c.cell),
      kind: 'text',
      strings: c.strings,
    }));
  }
  if (isArraySchema(element)) return [{ ...leafColumn(path, at), kind: 'text', strings: false }]; // arrays: JSON text
  return [{ name: path, cell: (row) => joinList(at(row), scalarText), kind: 'text', strings: isString(element) }];
}

function leafColumn(name: string, at: (row: unknown) => unknown): Omit<Column, 'kind' | 'strings'> {
  return { name, cell: (row) => scalarText(at(row)) };
}

function isString(schema: Schema): boolean {
  return schema.type === 'string';
}

/** A scalar schema's kind; a union of types (or none) is text, as its cells may be any of them. */
function leafKind(schema: Schema): ColumnKind {
  switch (schema.type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

export function member(row: unknown, name: string): unknown {
  return row !== null && typeof row === 'object' && !Array.isArray(row)
    ? (row as Record<string, unknown>)[name]
    : undefined;
}

/** A value as JSON would carry it: strings as they are, numbers as JSON writes them, other shapes as JSON text. */
export function scalarText(value: unknown): Cell {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : null; // JSON writes NaN and Infinity as null
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return String(value);
    case 'object':
      if (value === null) return null;
      return JSON.stringify(value) ?? null;
    default:
      return null; // undefined, functions, symbols: absent in JSON
  }
}

/** The elements of a list, each through `cell`, with `\` and `|` escaped, joined by `|`. Absent or empty → empty. */
function joinList(list: unknown, cell: (element: unknown) => Cell): Cell {
  if (!Array.isArray(list)) return list === null || list === undefined ? null : scalarText(list);
  if (list.length === 0) return null;
  return list.map((element) => (cell(element) ?? '').replace(/[\\|]/g, '\\$&')).join('|');
}
