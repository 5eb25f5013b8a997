import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import type { ReferenceData } from '../../core/reference.js';
import { Nullable, Synthetic } from '../../core/schemas.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import { fold } from '../../lib/text-match.js';
import type { IndicatorRecord, PlanRecord } from '../../store/records.js';
import type { Store } from '../../store/store.js';
import { DistrictName, findDistrict } from '../municipalities/find-district.js';
import { FromDate, seriesRange, ToDate } from '../shared/date-range.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorKey } from './schemas.js';
import { servedValue } from './values.js';

const MedianPoint = Type.Object(
  {
    reference_date: Type.String({ format: 'date', description: 'Last day of the reference period.' }),
    national_median: Nullable(Type.Number({ description: 'Median of the municipalities with a value at this date.' })),
    national_count: Type.Integer({ description: 'Municipalities with a value at this date.' }),
    district_median: Type.Optional(
      Nullable(Type.Number({ description: "Median of the district's municipalities (with `district`)." })),
    ),
    district_count: Type.Optional(
      Type.Integer({ description: "The district's municipalities with a value (with `district`)." }),
    ),
    synthetic: Synthetic,
  },
  { title: 'MedianPoint' },
);

export const indicatorsMedians = defineOperation({
  name: 'indicators_medians',
  title: 'Indicator medians by period',
  summary: 'The median over the municipalities of one indicator at each reference date, nationally and in a district.',
  description:
    'One point per reference date, oldest first: the median of the values of the municipalities that have one at ' +
    'that date, and how many they are; with `district` (a district or autonomous region, accents optional) the same ' +
    "over that district's municipalities. A municipality's series compared with these medians shows whether it " +
    "moves with its district and the country. `from`/`to` bound the dates (inclusive); the plan's `history_years` " +
    'window applies as for series. On plans without raw values the medians are of the normalized 0–100 values.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      key: IndicatorKey,
      district: Type.Optional(DistrictName('Also the medians over this district.')),
      from: FromDate('reference date'),
      to: ToDate('reference date'),
    },
    { additionalProperties: false },
  ),
  output: Type.Array(MedianPoint),
  rest: { path: '/v1/indicators/:key/medians' },
  cache: 'data',
  examples: [
    { title: 'Unemployment: national medians', input: { key: 'unemployment_rate' } },
    {
      title: 'Population density: national and Porto district medians since 2015',
      input: { key: 'population_density', district: 'Porto', from: '2015-01-01' },
    },
  ],
  async handler(input, { reference, store, caller, now }) {
    const indicator = findIndicator(reference, input.key);
    const district = input.district === undefined ? undefined : findDistrict(reference, input.district);
    const { from, to } = seriesRange(input, caller.plan, now);
    const byDate = await valuesByDate(reference, store, indicator, caller.plan);
    const points = [];
    for (const [date, values] of byDate) {
      if ((from !== undefined && date < from) || (to !== undefined && date > to)) continue;
      const all = values.map((v) => v.value);
      const point: Record<string, unknown> = {
        reference_date: date,
        national_median: median(all),
        national_count: all.length,
      };
      point.synthetic = isDemoIndicatorSource(indicator.source);
      if (district !== undefined) {
        const own = values.filter((v) => v.district === district).map((v) => v.value);
        point.district_median = median(own);
        point.district_count = own.length;
      }
      points.push(point);
    }
    return points as never;
  },
});

interface DatedValue {
  readonly district: string;
  readonly value: number;
}

/**
 * Every municipality's served values of one indicator, by reference date (ascending): read once per indicator,
 * value kind and data version (the reference data's memo), from each municipality's series.
 */
function valuesByDate(
  reference: ReferenceData,
  store: Store,
  indicator: IndicatorRecord,
  plan: PlanRecord,
): Promise<Map<string, DatedValue[]>> {
  return reference.memo(`medians:${indicator.key}:${plan.raw_values ? 'raw' : 'normalized'}`, async () => {
    const byDate = new Map<string, DatedValue[]>();
    for (const m of reference.municipalities) {
      const rows = await store.series({ indicator: indicator.key, municipalityId: m.id, limit: 100_000 });
      for (const row of rows) {
        const { value } = servedValue(row, plan);
        if (value === null) continue;
        const list = byDate.get(row.reference_date) ?? [];
        list.push({ district: fold(m.district), value });
        byDate.set(row.reference_date, list);
      }
    }
    return new Map([...byDate].sort(([a], [b]) => (a < b ? -1 : 1)));
  });
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const v = values.slice().sort((a, b) => a - b);
  const n = v.length;
  const m = n % 2 === 1 ? v[(n - 1) / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  return Math.round(m * 1e6) / 1e6;
}
