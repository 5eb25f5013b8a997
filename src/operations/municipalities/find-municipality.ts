import type { ReferenceData } from '../../core/reference.js';
import { ApiError } from '../../lib/errors.js';
import type { MunicipalityRecord } from '../../store/records.js';

/** The municipality with this code or slug, or 404 `not-found`. */
export function findMunicipality(reference: ReferenceData, ref: string): MunicipalityRecord {
  const municipality = reference.municipality(ref);
  if (!municipality) {
    throw new ApiError('not-found', {
      detail: `No municipality with code or slug "${ref}". Codes have 4 digits (Lisboa is 1106); GET /v1/municipalities lists them.`,
    });
  }
  return municipality;
}
