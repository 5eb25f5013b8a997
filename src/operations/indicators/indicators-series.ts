import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { MunicipalityRef, Page, Paging } from '../../core/schemas.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { findMunicipality } from '../municipalities/find-municipality.js';
import { FromDate, seriesRange, ToDate } from '../shared/date-range.js';
import { MAX_MUNICIPALITIES } from '../shared/municipality-filters.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorKey, SeriesPoint } from './schemas.js';
import { servedValue } from './values.js';

const REPEATABLE_UP_TO_MAX = `repeat it, or give a list, for up to ${MAX_MUNICIPALITIES}`;

export const indicatorsSeries = defineOperation({
  name: 'indicators_series',
  title: 'Indicator time series',
  summary: "One indicator's time series for one or several municipalities, oldest first.",
  description:
    'Returns the points of one indicator for one municipality (code, slug or name), by reference_date ascending; ' +
    'reference_date is the last day of the period (year 2021 → 2021-12-31). Repeat `municipality` (or, on A2A and ' +
    `MCP, pass a list) for up to ${MAX_MUNICIPALITIES}: the points come municipality by municipality (by code), each ` +
    'oldest first, every point naming its `municipality`. `from` and `to` bound the dates ' +
    "(inclusive). A range reaching further back than the plan's `history_years` is clamped to that window, " +
    'not refused.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      key: IndicatorKey,
      municipality: Type.Union(
        [MunicipalityRef, Type.Array(MunicipalityRef, { minItems: 1, maxItems: MAX_MUNICIPALITIES })],
        {
          description: `The municipality (code, slug or name); ${REPEATABLE_UP_TO_MAX}.`,
          examples: ['1106', ['porto', 'Vila Nova de Gaia']],
        },
      ),
      from: FromDate('reference date'),
      to: ToDate('reference date'),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(SeriesPoint, 'SeriesPoint'),
  rest: { path: '/v1/indicators/:key/series' },
  cache: 'data',
  examples: [
    { title: 'Population of Lisboa', input: { key: 'population', municipality: '1106' } },
    {
      title: 'Birth rate of Porto since 2018',
      input: { key: 'birth_rate', municipality: 'porto', from: '2018-01-01' },
    },
    {
      title: 'Population of Porto and Vila Nova de Gaia since 2020',
      input: { key: 'population', municipality: ['porto', 'Vila Nova de Gaia'], from: '2020-01-01' },
    },
  ],
  async handler(input, { reference, store, paging, caller, now }) {
    const indicator = findIndicator(reference, input.key);
    const refs = Array.isArray(input.municipality) ? input.municipality : [input.municipality];
    const municipalities = [
      ...new Map(refs.map((ref) => findMunicipality(reference, ref)).map((m) => [m.code, m])).values(),
    ].sort((a, b) => (a.code < b.code ? -1 : 1));
    const { from, to } = seriesRange(input, caller.plan, now);
    const after = seriesPosition(paging.after, municipalities);
    const synthetic = isDemoIndicatorSource(indicator.source);
    const points: {
      municipality: string;
      reference_date: string;
      value: number | null;
      treatment: string;
      synthetic: boolean;
    }[] = [];
    for (const municipality of municipalities) {
      if (after !== undefined && municipality.code < after.code) continue;
      const rows = await store.series({
        indicator: indicator.key,
        municipalityId: municipality.id,
        from,
        to,
        after: after !== undefined && municipality.code === after.code ? after.date : undefined,
        limit: paging.limit + 1 - points.length,
      });
      for (const row of rows) {
        points.push({
          municipality: municipality.code,
          reference_date: row.reference_date,
          ...servedValue(row, caller.plan),
          synthetic,
        });
      }
      if (points.length > paging.limit) break;
    }
    return paging.page(points, (p) => [p.municipality, p.reference_date]);
  },
});

/**
 * The [code, date] position a page ended at. A cursor of one municipality's series from before several could be
 * asked holds the date alone: it is that municipality's position (cursors are signed, so the shape is ours).
 */
function seriesPosition(
  after: unknown,
  municipalities: readonly MunicipalityRecord[],
): { code: string; date: string } | undefined {
  if (after === undefined) return undefined;
  if (typeof after === 'string') return { code: municipalities[0].code, date: after };
  const [code, date] = after as [string, string];
  return { code, date };
}
