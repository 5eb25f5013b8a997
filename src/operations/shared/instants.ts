/**
 * Instants as inputs and as list positions, for the lists ordered by an instant (signals and cases by
 * last_seen_at, alert matches by matched_at). The store holds instants as RFC 3339 UTC with whole seconds
 * (`2026-07-14T09:30:00Z`), so a `since` given in any offset or with a fraction is brought to that form first.
 * `updated_at` is the exception: a millisecond instant, strictly growing from write to write, which is what lets
 * `updated_since` list changes in an order a syncing client can page through (docs/api.md, "Syncing").
 */
import { Type } from '@sinclair/typebox';
import { instantMs } from '../../lib/calendar.js';
import type { InstantPosition } from '../../store/signal-queries.js';

const INSTANT_FORMAT = 'RFC 3339, e.g. `2026-07-14T09:30:00Z`; any offset';

export const SinceInstant = (what: string) =>
  Type.Optional(
    Type.String({
      format: 'date-time',
      description: `Watermark: only ${what} at or after this instant (${INSTANT_FORMAT}).`,
    }),
  );

/** The list's input that switches it to its change order (store: ../../store/changes/changed-since.ts). */
export const ChangeOrder = (what: string) => ({
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        `Only ${what} added or changed after this instant (exclusive), listed oldest change first, by ` +
        '`updated_at` then `id`, instead of the usual order: pass the `updated_at` of the last item a completed ' +
        `sync read; an interrupted one goes on from its last \`next_cursor\`. ${INSTANT_FORMAT}.`,
    }),
  ),
});

export const UpdatedAt = Type.String({
  format: 'date-time',
  description: 'When it was last added or changed, to the millisecond; what `updated_since` compares.',
});

/** `updated_since` in the form of the stored `updated_at` (UTC, milliseconds; a finer fraction cut, as it compares). */
export function changeInstant(instant: string | undefined): string | undefined {
  return instant === undefined ? undefined : new Date(instantMs(instant) ?? Number.NaN).toISOString();
}

/**
 * Where a row of the list stands, for its cursor: (updated_at, id) in the change order, else the list's own.
 */
export function listPosition<T extends { updated_at: string; id: number }>(
  updatedSince: string | undefined,
  usual: (row: T) => unknown[],
): (row: T) => unknown[] {
  return updatedSince === undefined ? usual : (row) => [row.updated_at, row.id];
}

/**
 * The instant in the store's form: UTC, whole seconds, `Z`. A fraction is rounded up, so that "at or after"
 * keeps its meaning on whole-second values (09:30:00.5 admits 09:30:01, not 09:30:00); a leap second is read by
 * the calendar's reader (the next second). A string is one validation accepted (format `date-time`).
 */
export function utcInstant(instant: Date | string): string {
  const ms = typeof instant === 'string' ? (instantMs(instant) ?? Number.NaN) : instant.getTime();
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The [instant, id] position an instant-ordered list put in its cursor (signed: its shape is ours). */
export function instantPosition(after: unknown): InstantPosition | undefined {
  if (after === undefined) return undefined;
  const [at, id] = after as [string, number];
  return { at, id };
}
