/**
 * Municipality filters shared by the list operations of every domain (procurement, signals, cases): a
 * repeatable code-or-slug parameter of at most 50 values (docs/decisions.md, Lists), resolved to the integer ids the
 * store filters on; an unknown value is a 422 naming it, never an empty answer.
 */
import { Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { MunicipalityRef } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { municipalitiesSearch } from '../municipalities/municipalities-search.js';
import { procurementLookupMunicipalities } from '../procurement/procurement-lookup-municipalities.js';
import { closestMunicipalities, didYouMean } from './closest-municipalities.js';

export const MAX_MUNICIPALITIES = 50;

export const MunicipalityRefs = (description: string) =>
  Type.Array(MunicipalityRef, {
    minItems: 1,
    maxItems: MAX_MUNICIPALITIES,
    description: `${description} Repeat the parameter for several (at most ${MAX_MUNICIPALITIES}).`,
  });

/**
 * The ids of these municipality codes, slugs or names; an unknown one is 422 `validation-error` naming it, with the
 * closest names to the first unknown one as `suggestions`.
 */
export function municipalityIds(
  reference: ReferenceData,
  refs: readonly string[] | undefined,
  field: string,
): number[] | undefined {
  if (refs === undefined) return undefined;
  const unknown = refs.filter((ref) => reference.municipality(ref) === undefined);
  if (unknown.length > 0) {
    const suggestions = closestMunicipalities(reference, unknown[0]);
    throw new ApiError('validation-error', {
      detail:
        `Unknown municipality ${unknown.map((u) => `"${u}"`).join(', ')}.${didYouMean(suggestions)} ` +
        `Use the 4-digit code (Lisboa is 1106), the slug or the name.`,
      see: [
        { operation: municipalitiesSearch, does: 'lists them' },
        { operation: procurementLookupMunicipalities, does: 'finds one by a name, typos forgiven' },
      ],
      suggestions,
      errors: [{ field, message: `has unknown municipality ${unknown.join(', ')}` }],
    });
  }
  return [...new Set(refs.map((ref) => (reference.municipality(ref) as { id: number }).id))];
}
