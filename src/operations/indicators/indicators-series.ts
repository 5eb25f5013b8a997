import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { DateString, MunicipalityRef, Page, Paging } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { findMunicipality } from '../municipalities/find-municipality.js';
import { findIndicator } from './find-indicator.js';
import { historyWindowStart } from './history-window.js';
import { IndicatorKey, SeriesPoint } from './schemas.js';
import { servedValue } from './values.js';

export const indicatorsSeries = defineOperation({
  name: 'indicators_series',
  title: 'Indicator time series',
  summary: "One indicator's time series for one municipality, oldest first.",
  description:
    'Returns the points of one indicator for one municipality (code, slug or name), by reference_date ascending; ' +
    'reference_date is the last day of the period (year 2021 → 2021-12-31). `from` and `to` bound the dates ' +
    "(inclusive). A range reaching further back than the plan's `history_years` is clamped to that window, not refused.",
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      key: IndicatorKey,
      municipality: MunicipalityRef,
      from: Type.Optional({ ...DateString, description: 'First reference date included (YYYY-MM-DD).' }),
      to: Type.Optional({ ...DateString, description: 'Last reference date included (YYYY-MM-DD).' }),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(SeriesPoint, 'SeriesPoint'),
  rest: { path: '/v1/indicators/:key/series' },
  cache: 'data',
  examples: [
    { title: 'Population of Lisboa', input: { key: 'population', municipality: '1106' } },
    { title: 'Birth rate of Porto since 2018', input: { key: 'birth_rate', municipality: 'porto', from: '2018-01-01' } },
  ],
  async handler(input, { reference, store, paging, caller, now }) {
    const indicator = findIndicator(reference, input.key);
    const municipality = findMunicipality(reference, input.municipality);
    if (input.from !== undefined && input.to !== undefined && input.from > input.to) {
      throw new ApiError('validation-error', {
        detail: '`from` is after `to`.',
        errors: [{ field: 'from', message: 'must not be after `to`' }],
      });
    }
    const windowStart = historyWindowStart(now, caller.plan.history_years);
    const from = windowStart !== undefined && (input.from === undefined || input.from < windowStart) ? windowStart : input.from;
    const rows = await store.series({
      indicator: indicator.key,
      municipalityId: municipality.id,
      from,
      to: input.to,
      after: paging.after as string | undefined,
      limit: paging.limit + 1,
    });
    const points = rows.map((row) => ({
      municipality: municipality.code,
      reference_date: row.reference_date,
      ...servedValue(row, caller.plan),
    }));
    return paging.page(points, (p) => p.reference_date);
  },
});
