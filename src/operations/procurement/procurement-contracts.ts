import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { queryTokens } from '../../core/text-match.js';
import { CpvPrefix, checkRange, datePosition, FromDate, MunicipalityRefs, municipalityIds, Nif, SearchText, ToDate } from './inputs.js';
import { toContractSummary } from './resources.js';
import { ContractSummary, OcdsMethod } from './schemas.js';

export const procurementContracts = defineOperation({
  name: 'procurement_contracts',
  title: 'Search public contracts',
  summary: 'Public contracts, newest first, filtered by place, parties, CPV, procedure, dates, amounts and text.',
  description:
    'Lists public procurement contracts, ordered by publication date descending, then id descending (contracts ' +
    'without a publication date last); page with `cursor`. Every filter given must hold. `municipality` (code or ' +
    'slug, repeatable): executed in any of them. `buyer` / `supplier`: the tax number of a contracting entity / a ' +
    'supplier (procurement_lookup_entities finds it by name; a municipality’s own is in procurement_lookup_municipalities). ' +
    '`cpv`: the main CPV code starts with these digits (`45` construction work). `procedure_type`: the Portuguese ' +
    'label, any case or accents (`Concurso público`); `method`: its OCDS method. `from`/`to`: publication dates, ' +
    'inclusive. `min_amount`/`max_amount`: the contract price in euros (without VAT), inclusive; contracts without ' +
    'a price only match when no amount bound is given. `q`: words in the object or description.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      municipality: Type.Optional(MunicipalityRefs('Executed in this municipality (code or slug).')),
      buyer: Type.Optional({ ...Nif, description: 'Tax number of a contracting entity (9 digits).' }),
      supplier: Type.Optional({ ...Nif, description: 'Tax number of a supplier (9 digits).' }),
      cpv: Type.Optional(CpvPrefix),
      procedure_type: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Procedure type as published (`Ajuste Direto Regime Geral`), any case or accents.',
        }),
      ),
      method: Type.Optional(OcdsMethod),
      from: FromDate('publication date'),
      to: ToDate('publication date'),
      min_amount: Type.Optional(Type.Number({ minimum: 0, description: 'Lowest contract price included, euros.' })),
      max_amount: Type.Optional(Type.Number({ minimum: 0, description: 'Highest contract price included, euros.' })),
      q: SearchText('the object or description'),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(ContractSummary, 'ContractSummary'),
  rest: { path: '/v1/procurement/contracts' },
  cache: 'data',
  examples: [
    { title: 'Contracts executed in Lisboa', input: { municipality: ['1106'] } },
    { title: 'Construction work in Porto since 2024', input: { municipality: ['porto'], cpv: '45', from: '2024-01-01' } },
    { title: 'Open tenders above 1 million euros', input: { method: 'open', min_amount: 1000000 } },
    { title: 'Contracts by words', input: { q: 'limpeza escolas' } },
  ],
  async handler(input, { reference, store, paging }) {
    checkRange(input.from, input.to, 'from', 'to');
    checkRange(input.min_amount, input.max_amount, 'min_amount', 'max_amount');
    const rows = await store.listContracts(
      {
        municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
        buyer: input.buyer,
        supplier: input.supplier,
        cpvPrefix: input.cpv,
        procedureType: input.procedure_type,
        method: input.method,
        from: input.from,
        to: input.to,
        minAmount: input.min_amount,
        maxAmount: input.max_amount,
        words: input.q === undefined ? undefined : queryTokens(input.q),
      },
      { after: datePosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(rows.map(toContractSummary), (c) => [c.published_on, c.id]);
  },
});
