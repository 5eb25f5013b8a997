/**
 * Bulk writes with COPY … FROM STDIN (pg-copy-streams): rows stream to the server in PostgreSQL's text format,
 * the fastest way in. `upsertRows` copies into a temporary table first when some rows replace stored ones, then
 * merges them with one INSERT … ON CONFLICT. Use them on the client of a transaction.
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { setExcluded } from '../sql/statements.js';
import { unavailableWhenUnreachable } from './failures.js';

export type CopyValue = string | number | boolean | null | undefined | readonly string[];

/** Rows per chunk written to the stream: large enough to keep the socket busy, small enough to stay light. */
const CHUNK_ROWS = 2000;

export async function copyRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly CopyValue[][],
): Promise<void> {
  if (rows.length === 0) return;
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  try {
    await pipeline(Readable.from(chunks(rows)), stream);
  } catch (error) {
    throw unavailableWhenUnreachable(error);
  }
}

function* chunks(rows: readonly CopyValue[][]): Generator<string> {
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    let text = '';
    for (const row of rows.slice(start, start + CHUNK_ROWS)) text += `${row.map(field).join('\t')}\n`;
    yield text;
  }
}

/** One field in COPY's text format: \N for null, backslash escapes for the separators. */
function field(value: CopyValue): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return escapeText(arrayLiteral(value));
  return escapeText(value as string);
}

function escapeText(text: string): string {
  return text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));
}

/** A text[] literal: every element quoted, quotes and backslashes escaped. */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

/**
 * Inserts rows, or replaces those whose `key` is already stored. With `replacing` false (all rows are new) they
 * are copied straight into the table; otherwise through a temporary table and one INSERT … ON CONFLICT (key).
 */
export async function upsertRows(
  client: pg.PoolClient,
  table: string,
  columns: readonly string[],
  rows: readonly CopyValue[][],
  options: { key: string; replacing: boolean },
): Promise<void> {
  if (rows.length === 0) return;
  if (!options.replacing) return copyRows(client, table, columns, rows);
  const stage = `${table}_stage`;
  const run = async (text: string) => {
    try {
      await client.query(text);
    } catch (error) {
      throw unavailableWhenUnreachable(error);
    }
  };
  await run(`CREATE TEMP TABLE ${stage} (LIKE ${table} INCLUDING DEFAULTS) ON COMMIT DROP`);
  await copyRows(client, stage, columns, rows);
  const updates = setExcluded(columns.filter((c) => c !== options.key));
  await run(
    `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${columns.join(', ')} FROM ${stage}
     ON CONFLICT (${options.key}) DO UPDATE SET ${updates}`,
  );
  await run(`DROP TABLE ${stage}`);
}
