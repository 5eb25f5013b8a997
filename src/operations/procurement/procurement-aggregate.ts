import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { ApiError } from '../../lib/errors.js';
import { DEMO_PROCUREMENT_SOURCE, isDemoProcurementSource } from '../../lib/provenance.js';
import { AGGREGATE_DIMENSIONS } from '../../store/procurement-queries.js';
import { FromDate, ToDate } from '../shared/date-range.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { checkRange } from '../shared/ranges.js';
import { SourceFilter } from './inputs.js';
import { AggregateAnswer, AggregateDimension } from './schemas.js';

/** An answer is one JSON document: a grouping finer than this is refused; narrow the filters or the dimensions. */
export const MAX_GROUPS = 10_000;

export const procurementAggregate = defineOperation({
  name: 'procurement_aggregate',
  title: 'Public contracts: counts and totals by group',
  summary:
    'Number of contracts and euros per year, month, CPV division, procedure type, buyer, supplier or municipality.',
  description:
    'Counts contracts and sums their price (euros without VAT; a contract without a price counts with 0) per group. ' +
    '`group_by` (repeatable, 1 to 3 of: ' +
    AGGREGATE_DIMENSIONS.join(', ') +
    '; default year) names the key of each group; groups are ordered by key, dimension by dimension, none/unknown ' +
    'last. A contract counts once in every group it falls in: ' +
    'a contract with two suppliers counts for each supplier, ' +
    'one executed in two municipalities for each municipality — so group sums can exceed `totals`, which count every ' +
    'matching contract once. `executed_in` (codes or slugs, repeatable): contracts executed in any of them (grouped ' +
    'by municipality, only those municipalities appear). `from`/`to`: publication dates, inclusive. `labels` names ' +
    'the CPV divisions, entities and municipalities of each key.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      executed_in: Type.Optional(MunicipalityRefs('Contracts executed in this municipality (code, slug or name).')),
      from: FromDate('publication date'),
      to: ToDate('publication date'),
      group_by: Type.Optional(
        Type.Array(AggregateDimension, {
          minItems: 1,
          maxItems: 3,
          uniqueItems: true,
          default: ['year'],
          description: 'The dimensions of the groups, in key order (repeat the parameter). Default: year.',
        }),
      ),
      source: SourceFilter,
    },
    { additionalProperties: false },
  ),
  output: AggregateAnswer,
  rest: { path: '/v1/procurement/aggregate' },
  cache: 'data',
  // The CSV form has one row per group (docs/api.md, CSV); the totals are in the JSON answer.
  csvRows: 'groups',
  examples: [
    {
      title: 'Contracts executed in Lisboa per year since 2024',
      input: { executed_in: ['1106'], from: '2024-01-01', group_by: ['year'] },
    },
    { title: 'Porto by CPV division', input: { executed_in: ['porto'], group_by: ['cpv_division'] } },
    {
      title: 'National totals per month of 2024',
      input: { from: '2024-01-01', to: '2024-12-31', group_by: ['month'] },
    },
  ],
  async handler(input, { reference, store }) {
    checkRange(input.from, input.to, 'from', 'to');
    const groupBy = input.group_by ?? ['year'];
    const executedIn = municipalityIds(reference, input.executed_in, 'executed_in');
    const result = await store.aggregateContracts({
      executedIn,
      from: input.from,
      to: input.to,
      groupBy,
      source: input.source,
    });
    if (result.groups.length > MAX_GROUPS) {
      throw new ApiError('validation-error', {
        detail:
          `${result.groups.length} groups: more than ${MAX_GROUPS}. ` +
          `Narrow executed_in, from and to, or group by fewer dimensions.`,
        errors: [{ field: 'group_by', message: `gives more than ${MAX_GROUPS} groups with these filters` }],
      });
    }
    // Synthetic when demo contracts are among those counted: of the source asked for, or found in the same scope.
    const synthetic =
      input.source !== undefined
        ? isDemoProcurementSource(input.source)
        : result.totals.count > 0 &&
          (
            await store.listContracts(
              { municipalityIds: executedIn, from: input.from, to: input.to, source: DEMO_PROCUREMENT_SOURCE },
              { limit: 1 },
            )
          ).length > 0;
    return { group_by: [...groupBy], groups: result.groups, totals: result.totals, synthetic };
  },
});
