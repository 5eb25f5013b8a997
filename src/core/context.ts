/** What a handler receives besides its input: the caller, the store, reference data, paging, the time. */

import type { Caller } from '../access/caller.js';
import type { Store } from '../store/store.js';
import type { DatasetFiles } from './dataset-files.js';
import type { ReferenceData } from './reference.js';

export interface PageResult<T> {
  items: T[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface Paging {
  /** Page size asked for (default applied). Fetch `limit + 1` rows to know whether there is more. */
  readonly limit: number;
  /** The keyset position after which this page starts; undefined on the first page. */
  readonly after: unknown;
  /** Cuts `rows` (up to `limit + 1`) to one page and signs the position of its last row as `next_cursor`. */
  page<T>(rows: T[], positionOf: (row: T) => unknown): PageResult<T>;
}

/**
 * `rows` (up to `limit + 1`) cut to one page: when there is a row more, the page ends at `limit` and `cursorFor`
 * names the position of its last row as `next_cursor`.
 */
export function cutPage<T>(
  rows: T[],
  limit: number,
  positionOf: (row: T) => unknown,
  cursorFor: (position: unknown) => string,
): PageResult<T> {
  if (rows.length <= limit) return { items: rows, next_cursor: null, has_more: false };
  const items = rows.slice(0, limit);
  return { items, next_cursor: cursorFor(positionOf(items[items.length - 1])), has_more: true };
}

export interface Usage {
  /** Charged requests in the current monthly period. */
  readonly used: number;
  readonly period: { readonly start: string; readonly end: string };
}

export interface OperationContext {
  readonly caller: Caller;
  readonly store: Store;
  readonly reference: ReferenceData;
  readonly paging: Paging;
  readonly now: Date;
  readonly baseUrl: string;
  /** The caller's usage this month (read lazily: only `me` needs it). */
  usage(): Promise<Usage>;
  /** The datasets offered whole and their files (docs/api.md, Bulk download): for the operation that lists them. */
  readonly datasets: DatasetFiles;
}
