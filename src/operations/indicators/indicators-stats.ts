import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorKey, IndicatorStats } from './schemas.js';
import { loadSnapshot } from './snapshot.js';

export const indicatorsStats = defineOperation({
  name: 'indicators_stats',
  title: 'Indicator statistics',
  summary: "Count, min, max, mean and median over the municipalities' latest values.",
  description:
    "Statistics over the snapshot's non-null values (each municipality's latest value); `as_of` is the latest " +
    'reference date. On plans without raw values they are computed over the normalized 0–100 values.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ key: IndicatorKey }, { additionalProperties: false }),
  output: IndicatorStats,
  rest: { path: '/v1/indicators/:key/stats' },
  cache: 'data',
  examples: [{ title: 'Population statistics', input: { key: 'population' } }],
  async handler(input, { reference, store, caller }) {
    const indicator = findIndicator(reference, input.key);
    const { sortedValues: v, asOf } = await loadSnapshot(reference, store, indicator, caller.plan);
    const n = v.length;
    const synthetic = isDemoIndicatorSource(indicator.source);
    if (n === 0)
      return {
        indicator: indicator.key,
        count: 0,
        min: null,
        max: null,
        mean: null,
        median: null,
        as_of: asOf,
        synthetic,
      };
    const sum = v.reduce((a, b) => a + b, 0);
    const median = n % 2 === 1 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return {
      indicator: indicator.key,
      count: n,
      min: v[0],
      max: v[n - 1],
      mean: round(sum / n),
      median: round(median),
      as_of: asOf,
      synthetic,
    };
  },
});

/** Six decimals: enough for any unit we serve, without float noise like 12.300000000000001. */
function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
