import { Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { closestDistricts } from '../../lib/district-names.js';
import { ApiError } from '../../lib/errors.js';
import { fold } from '../../lib/text-match.js';

/**
 * The folded name of a district or autonomous region (accents optional, the regions also by their short names:
 * `Açores`, `Madeira`); an unknown one is 422 with the nearest names, as an unknown municipality gets (docs/api.md).
 */
export function findDistrict(reference: ReferenceData, district: string): string {
  const name = reference.district(district);
  if (name === undefined) {
    const near = closestDistricts(reference.districts, district);
    throw new ApiError('validation-error', {
      detail: `Unknown district "${district}".${near.length > 0 ? ` Did you mean ${near.join(', ')}?` : ''}`,
      errors: [{ field: 'district', message: `must be one of: ${reference.districts.join(', ')}` }],
      suggestions: near.map((n) => ({ code: n, name: n })),
    });
  }
  return fold(name);
}

/** The `district` parameter of every operation and skill that takes one, read by findDistrict. */
export const DistrictName = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 100,
    description:
      `${description} A district (\`Braga\`) or autonomous region (\`Açores\` or \`Azores\`, \`Madeira\`, or ` +
      'the full name); case and accents optional.',
  });
