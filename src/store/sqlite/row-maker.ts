/**
 * Rows of a read as objects, made in JavaScript from the arrays better-sqlite3 gives in raw mode. Its own objects
 * are built property by property in C++, which cost more than the read: 100,000 contracts' rows in 1.33 s as
 * objects, 0.52 s as arrays, 0.78–0.91 s as arrays made into objects here (docs/performance.md, "Rows as arrays").
 *
 * A statement's columns are fixed, so its maker is compiled once from them: an object literal of those keys in that
 * order, which V8 builds with one shape. The keys are JSON string literals (a column name is never code); a later
 * column of the same name wins, as in better-sqlite3's objects. `__proto__` as a literal's key would set the
 * prototype instead of a property: such a statement is made property by property.
 */
import type { Row } from '../sql/port.js';

export type RowMaker = (values: readonly unknown[]) => Row;

export function rowMaker(columns: readonly string[]): RowMaker {
  if (columns.includes('__proto__')) return byProperty(columns);
  const body = `return {${columns.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ')}};`;
  return new Function('values', body) as RowMaker;
}

/** Object.fromEntries defines each key as an own property, `__proto__` too. */
function byProperty(columns: readonly string[]): RowMaker {
  return (values) => Object.fromEntries(columns.map((name, i) => [name, values[i]]));
}
