import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Cursor, DateString, Page } from '../../core/schemas.js';
import { fold } from '../../lib/text-match.js';
import { DistrictName, findDistrict } from '../municipalities/find-district.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorKey, SnapshotRow } from './schemas.js';
import { loadSnapshot } from './snapshot.js';

/** Every municipality on one page: a snapshot is the table an analyst wants whole (docs/api.md, Snapshots). */
export const MAX_SNAPSHOT_LIMIT = 308;

export const indicatorsSnapshot = defineOperation({
  name: 'indicators_snapshot',
  title: 'Indicator snapshot',
  summary: "Every municipality's latest value of one indicator (or as of a past date), with its percentile.",
  description:
    'One row per municipality (all 308, ordered by code): the latest value of the indicator with its ' +
    '`reference_date`, its percentile (share of municipalities with a lower value, 0–100; ties share the rank) and ' +
    "`is_stale` when that value is older than the indicator's latest reference date. `value` is null where a " +
    "municipality has no data. `date`: the snapshot as it stood on that date (each municipality's latest value " +
    'on or before it). `district`: only the municipalities of one district or autonomous region (accents ' +
    'optional); percentiles stay national. `limit` goes up to 308, so one page can hold every municipality.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      key: IndicatorKey,
      date: Type.Optional({
        ...DateString,
        description: 'As of this date (YYYY-MM-DD): the latest value on or before it.',
      }),
      district: Type.Optional(DistrictName('Only the municipalities of this district.')),
      cursor: Type.Optional(Cursor),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: MAX_SNAPSHOT_LIMIT,
          default: 50,
          description: `Page size, 1 to ${MAX_SNAPSHOT_LIMIT} (default 50).`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Page(SnapshotRow, 'SnapshotRow'),
  rest: { path: '/v1/indicators/:key/snapshot' },
  cache: 'data',
  examples: [
    { title: 'Unemployment in every municipality', input: { key: 'unemployment_rate', limit: 50 } },
    { title: 'Population of every municipality on one page', input: { key: 'population', limit: 308 } },
    {
      title: 'Population in the district of Braga at the end of 2020',
      input: { key: 'population', district: 'Braga', date: '2020-12-31' },
    },
  ],
  async handler(input, { reference, store, paging, caller }) {
    const indicator = findIndicator(reference, input.key);
    const district = input.district === undefined ? undefined : findDistrict(reference, input.district);
    const { rows } = await loadSnapshot(reference, store, indicator, caller.plan, input.date);
    const chosen = district === undefined ? rows : rows.filter((r) => fold(r.district) === district);
    const after = paging.after as string | undefined;
    const start = after === undefined ? 0 : chosen.findIndex((r) => r.municipality > after);
    const page = start < 0 ? [] : chosen.slice(start, start + paging.limit + 1);
    return paging.page(page, (r) => r.municipality);
  },
});
