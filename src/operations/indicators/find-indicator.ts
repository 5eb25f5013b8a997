import type { ReferenceData } from '../../core/reference.js';
import { ApiError } from '../../lib/errors.js';
import type { IndicatorRecord } from '../../store/records.js';
import { indicatorsList } from './indicators-list.js';

/** The indicator with this key, or 404 `not-found`. */
export function findIndicator(reference: ReferenceData, key: string): IndicatorRecord {
  const indicator = reference.indicator(key);
  if (!indicator) {
    throw new ApiError('not-found', {
      detail: `No indicator with key "${key}".`,
      see: { operation: indicatorsList, does: 'lists them' },
    });
  }
  return indicator;
}
