/** Input pieces the skills share, and the lookups that turn them into records (an unknown one is 422). */
import { Type } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { ApiError } from '../../lib/errors.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { findMunicipality } from '../deployment-spec.js';

export const MunicipalityInput = Type.String({
  minLength: 1,
  maxLength: 100,
  description: 'A municipality: its 4-digit code (`1106`), slug (`lisboa`) or name (`Lisboa`, accents optional).',
});

export function municipalityOf(reference: ReferenceData, ref: string, field = 'municipality'): MunicipalityRecord {
  const m = findMunicipality(reference, ref);
  if (!m) {
    throw new ApiError('validation-error', {
      detail: `Unknown municipality "${ref}".`,
      errors: [{ field, message: 'is not a municipality code, slug or name' }],
    });
  }
  return m;
}

/** A refusal of the request itself (not a fault): a task ends REJECTED, a message answers -32004/-32602. */
export function refuse(detail: string, field?: string): ApiError {
  return field === undefined
    ? new ApiError('not-found', { detail })
    : new ApiError('validation-error', { detail, errors: [{ field, message: detail }] });
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
