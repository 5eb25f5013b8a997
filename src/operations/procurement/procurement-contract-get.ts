import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { foundContract } from './found-records.js';
import { toContractDetail } from './resources.js';
import { ContractDetail } from './schemas.js';

export const procurementContractGet = defineOperation({
  name: 'procurement_contract_get',
  title: 'Get a public contract',
  summary: 'One contract with every field, its CPV labels, competitors and amendments.',
  description:
    'Returns one contract by the `id` that procurement_contracts gives: its parties (buyers, suppliers, ' +
    'competitors), every CPV code with labels, prices (base, contract, effective), dates, execution places and ' +
    'municipalities, legal basis, and its amendments oldest first (with the price before and after each).',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { id: Type.Integer({ minimum: 1, description: 'Contract id.', examples: [1] }) },
    { additionalProperties: false },
  ),
  output: ContractDetail,
  rest: { path: '/v1/procurement/contracts/:id' },
  cache: 'data',
  examples: [{ title: 'Contract 1', input: { id: 1 } }],
  async handler(input, { store }) {
    return toContractDetail(await foundContract(store, input.id));
  },
});
