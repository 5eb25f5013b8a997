import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorKey, SnapshotRow } from './schemas.js';
import { loadSnapshot } from './snapshot.js';

export const indicatorsSnapshot = defineOperation({
  name: 'indicators_snapshot',
  title: 'Indicator snapshot',
  summary: "Every municipality's latest value of one indicator, with its percentile.",
  description:
    'One row per municipality (all 308, ordered by code): the latest value of the indicator, its percentile ' +
    '(share of municipalities with a lower value, 0–100; ties share the rank) and `is_stale` when that latest ' +
    "value is older than the indicator's latest reference date. `value` is null where a municipality has no data.",
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ key: IndicatorKey, ...Paging }, { additionalProperties: false }),
  output: Page(SnapshotRow, 'SnapshotRow'),
  rest: { path: '/v1/indicators/:key/snapshot' },
  cache: 'data',
  examples: [{ title: 'Unemployment in every municipality', input: { key: 'unemployment_rate', limit: 50 } }],
  async handler(input, { reference, store, paging, caller }) {
    const indicator = findIndicator(reference, input.key);
    const { rows } = await loadSnapshot(reference, store, indicator, caller.plan);
    const after = paging.after as string | undefined;
    const start = after === undefined ? 0 : rows.findIndex((r) => r.municipality > after);
    const page = start < 0 ? [] : rows.slice(start, start + paging.limit + 1);
    return paging.page(page, (r) => r.municipality);
  },
});
