import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { FromDate, ToDate } from '../shared/date-range.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { checkRange } from '../shared/ranges.js';
import { datePosition, SourceFilter } from './inputs.js';
import { toAmendment } from './resources.js';
import { Amendment } from './schemas.js';

export const procurementAmendments = defineOperation({
  name: 'procurement_amendments',
  title: 'Search contract amendments',
  summary: 'Amendments to public contracts (price changes), newest first, by contract, place and date.',
  description:
    'Lists contract amendments, ordered by date descending, then id descending (undated ones last); page with ' +
    '`cursor`. `contract`: the amendments of one contract (its id in procurement_contracts). `municipality` (code ' +
    'or slug, repeatable): amendments of contracts executed in any of them. `from`/`to`: amendment dates, inclusive. ' +
    'Prices in euros without VAT: where the source does not give the previous price, it is the price before this ' +
    'amendment (the previous amendment’s new price, or the contract price); change_eur = new − previous.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      contract: Type.Optional(Type.Integer({ minimum: 1, description: 'A contract id.' })),
      municipality: Type.Optional(MunicipalityRefs('Of contracts executed in this municipality (code, slug or name).')),
      from: FromDate('amendment date'),
      to: ToDate('amendment date'),
      source: SourceFilter,
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(Amendment, 'Amendment'),
  rest: { path: '/v1/procurement/amendments' },
  cache: 'data',
  examples: [
    { title: 'Latest amendments', input: { limit: 20 } },
    { title: 'Amendments of contracts in Lisboa in 2025', input: { municipality: ['1106'], from: '2025-01-01' } },
  ],
  async handler(input, { reference, store, paging }) {
    checkRange(input.from, input.to, 'from', 'to');
    if (input.contract !== undefined && !(await store.getContract(input.contract))) {
      throw new ApiError('validation-error', {
        detail: `No contract with id ${input.contract}.`,
        errors: [{ field: 'contract', message: 'is not the id of a contract' }],
      });
    }
    const rows = await store.listAmendments(
      {
        contractId: input.contract,
        municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
        from: input.from,
        to: input.to,
        source: input.source,
      },
      { after: datePosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(rows.map(toAmendment), (a) => [a.date, a.id]);
  },
});
