/**
 * Input pieces the procurement operations share, and their checks beyond the schema: ranges whose ends are in
 * the wrong order, cursor positions. Municipality filters are shared with other domains (../shared).
 */
import { Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { DateString } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import type { DatePosition } from '../../store/procurement-queries.js';
import { municipalityIds } from '../shared/municipality-filters.js';

export const Nif = Type.String({
  pattern: '^[0-9]{9}$',
  description: 'A Portuguese tax number (NIF/NIPC), 9 digits.',
  examples: ['500051070'],
});

export const CpvPrefix = Type.String({
  pattern: '^[0-9]{1,8}$',
  description: 'The first 1 to 8 digits of a CPV code: `45` is construction work, `4523` roads and pipelines.',
  examples: ['45'],
});

export const FromDate = (what: string) => Type.Optional({ ...DateString, description: `First ${what} included (YYYY-MM-DD).` });
export const ToDate = (what: string) => Type.Optional({ ...DateString, description: `Last ${what} included (YYYY-MM-DD).` });

export const SearchText = (what: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: `Words to find in ${what}: case- and accent-insensitive, every word must occur (as part of a word too).`,
    }),
  );

/** 422 when the lower end of a range is above its upper end. */
export function checkRange<T extends string | number>(low: T | undefined, high: T | undefined, lowField: string, highField: string): void {
  if (low !== undefined && high !== undefined && low > high) {
    throw new ApiError('validation-error', {
      detail: `\`${lowField}\` is above \`${highField}\`.`,
      errors: [{ field: lowField, message: `must not be above \`${highField}\`` }],
    });
  }
}

/** The [date, id] position a date-ordered list put in its cursor (the cursor is signed: its shape is ours). */
export function datePosition(after: unknown): DatePosition | undefined {
  if (after === undefined) return undefined;
  const [date, id] = after as [string | null, number];
  return { date, id };
}

/** The id of one municipality filter (code, slug or name); unknown is 422. */
export function findMunicipalityFilter(reference: ReferenceData, ref: string | undefined, field: string): number | undefined {
  return ref === undefined ? undefined : municipalityIds(reference, [ref], field)?.[0];
}
