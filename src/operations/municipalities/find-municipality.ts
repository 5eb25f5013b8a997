import type { ReferenceData } from '../../core/reference.js';
import { ApiError } from '../../lib/errors.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { closestMunicipalities, didYouMean } from '../shared/closest-municipalities.js';
import { municipalitiesSearch } from './municipalities-search.js';

/**
 * The municipality with this code, slug or name (case and accents ignored), or 404 `not-found` with the closest names.
 */
export function findMunicipality(reference: ReferenceData, ref: string): MunicipalityRecord {
  const municipality = reference.municipality(ref);
  if (!municipality) {
    const suggestions = closestMunicipalities(reference, ref);
    throw new ApiError('not-found', {
      detail:
        `No municipality with code, slug or name "${ref}".${didYouMean(suggestions)} ` +
        `Codes have 4 digits (Lisboa is 1106).`,
      see: { operation: municipalitiesSearch, does: 'lists them' },
      suggestions,
    });
  }
  return municipality;
}
