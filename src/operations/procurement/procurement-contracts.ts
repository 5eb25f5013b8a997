import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { ChangeOrder, changeInstant, listPosition } from '../shared/instants.js';
import { CONTRACT_FILTERS_DESCRIPTION, contractFilterOf, contractFilterParams } from './contract-filters.js';
import { datePosition } from './inputs.js';
import { toContractSummary } from './resources.js';
import { ContractSummary } from './schemas.js';

export const procurementContracts = defineOperation({
  name: 'procurement_contracts',
  title: 'Search public contracts',
  summary: 'Public contracts, newest first, filtered by place, parties, CPV, procedure, dates, amounts and text.',
  description:
    'Lists public procurement contracts, ordered by publication date descending, then id descending (contracts ' +
    `without a publication date last); page with \`cursor\`. ${CONTRACT_FILTERS_DESCRIPTION} ` +
    '`updated_since`: only contracts added or changed after it, oldest change first (for syncing copies).',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { ...contractFilterParams, ...ChangeOrder('contracts'), ...Paging },
    { additionalProperties: false },
  ),
  output: Page(ContractSummary, 'ContractSummary'),
  rest: { path: '/v1/procurement/contracts' },
  cache: 'data',
  examples: [
    { title: 'Contracts executed in Lisboa', input: { municipality: ['1106'] } },
    {
      title: 'Construction work in Porto since 2024',
      input: { municipality: ['porto'], cpv: '45', from: '2024-01-01' },
    },
    { title: 'Open tenders above 1 million euros', input: { method: 'open', min_amount: 1000000 } },
    { title: 'Contracts by words', input: { q: 'limpeza escolas' } },
    { title: 'Contracts added or changed since a sync', input: { updated_since: '2026-07-14T09:30:00.123Z' } },
  ],
  async handler(input, { reference, store, paging }) {
    const updatedSince = changeInstant(input.updated_since);
    const rows = await store.listContracts(
      { ...contractFilterOf(input, reference), updatedSince },
      { after: datePosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(
      rows.map(toContractSummary),
      listPosition(updatedSince, (c) => [c.published_on, c.id]),
    );
  },
});
