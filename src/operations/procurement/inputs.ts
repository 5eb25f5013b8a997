/**
 * Input pieces the procurement operations share, and their checks beyond the schema: cursor positions, one
 * municipality as a filter. Municipality lists, date ranges and the order of a range's ends are shared (../shared).
 */
import { Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { StringEnum, WordsText } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { isValidNif } from '../../lib/nif.js';
import { PROCUREMENT_SOURCES } from '../../lib/provenance.js';
import type { DatePosition } from '../../store/procurement-queries.js';
import { municipalityIds } from '../shared/municipality-filters.js';

/**
 * A party's tax number as the lists give it: a Portuguese NIF/NIPC (9 digits), or a foreign one as the portal
 * publishes it (`ESB82612599`, `005033019B01`, `017-36-7441`: a letter or a hyphen tells it from a mistyped Portuguese
 * number, which stays refused). A Portuguese number with its VAT prefix (`PT500051070`) is refused, not looked up.
 */
export const Nif = Type.String({
  pattern: '^(?:[0-9]{9}|(?!PT[0-9]{9}$)(?=[0-9-]*[A-Za-z-])[A-Za-z0-9][A-Za-z0-9-]{2,29})$',
  description:
    'A tax number: Portuguese (NIF/NIPC, 9 digits, no `PT` prefix) or foreign as the portal publishes it ' +
    '(e.g. `ESB82612599`).',
  examples: ['500051070'],
});

/**
 * 422 naming `field` for nine digits whose check digit fails (docs/data.md, "Entity kind"): a mistyped number, which
 * no record holds (the importer refuses them), so that a slip answers as one rather than as "no such entity" or an
 * empty list. A foreign id and a placeholder (`000000000`, which passes) are left to the lookup.
 */
export function checkTaxNumber(nif: string | undefined, field: string): void {
  if (nif === undefined || !/^[0-9]{9}$/.test(nif) || isValidNif(nif)) return;
  const message = 'fails the check digit (the ninth, computed from the first eight): check the number';
  throw new ApiError('validation-error', { detail: `${field}: ${message}`, errors: [{ field, message }] });
}

export const CpvPrefix = Type.String({
  pattern: '^[0-9]{1,8}$',
  description: 'The first 1 to 8 digits of a CPV code: `45` is construction work, `4523` roads and pipelines.',
  examples: ['45'],
});

/** Real and demo data apart (docs/data.md, "Real and synthetic data"): `base` is the portal's, `demo` generated. */
export const SourceFilter = Type.Optional(
  StringEnum(PROCUREMENT_SOURCES, {
    description:
      'Only records of this source: `base` (real, the national procurement portal) or `demo` (synthetic). ' +
      '`sources` lists them.',
  }),
);

const WORD_MATCHING = 'case- and accent-insensitive, every word must occur (as part of a word too)';

export const SearchText = (what: string) => Type.Optional(WordsText(`Words to find in ${what}: ${WORD_MATCHING}.`));

/** The [date, id] position a date-ordered list put in its cursor (the cursor is signed: its shape is ours). */
export function datePosition(after: unknown): DatePosition | undefined {
  if (after === undefined) return undefined;
  const [date, id] = after as [string | null, number];
  return { date, id };
}

/** The id of one municipality filter (code, slug or name); unknown is 422. */
export function findMunicipalityFilter(
  reference: ReferenceData,
  ref: string | undefined,
  field: string,
): number | undefined {
  return ref === undefined ? undefined : municipalityIds(reference, [ref], field)?.[0];
}
