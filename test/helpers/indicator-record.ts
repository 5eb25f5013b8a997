/** An indicator of the catalogue for tests: a plain annual count with no texts; each test says what it needs. */
import type { IndicatorRecord } from '../../src/store/records.js';

export function indicatorRecord(fields: Partial<IndicatorRecord> & Pick<IndicatorRecord, 'key'>): IndicatorRecord {
  return {
    name: fields.key,
    name_pt: fields.key,
    category: 'tourism',
    unit: 'count',
    unit_display: 'n.º',
    direction: 'neutral',
    source: null,
    country_code: 'PT',
    value_domain: 'amount',
    treatment: 'raw',
    summary: null,
    summary_pt: null,
    currency_code: null,
    scale_factor: 1,
    per_capita: false,
    unit_description: null,
    frequency: 'annual',
    ...fields,
  };
}
