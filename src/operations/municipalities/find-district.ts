import type { ReferenceData } from '../../core/reference.js';
import { ApiError } from '../../lib/errors.js';
import { fold } from '../../lib/text-match.js';

/** The folded name of a district or autonomous region (accents optional); an unknown one is 422 listing them. */
export function findDistrict(reference: ReferenceData, district: string): string {
  const key = fold(district.trim());
  if (!reference.municipalities.some((m) => fold(m.district) === key)) {
    const known = [...new Set(reference.municipalities.map((m) => m.district))].sort();
    throw new ApiError('validation-error', {
      detail: `Unknown district "${district}".`,
      errors: [{ field: 'district', message: `must be one of: ${known.join(', ')}` }],
    });
  }
  return key;
}
