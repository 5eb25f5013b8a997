import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { assessContract } from '../../integrity/assess-contract.js';
import { isDemoProcurementSource } from '../../lib/provenance.js';
import { foundContract } from './found-records.js';
import { integrityContext } from './integrity-context.js';
import { ASSESSMENT_STATES, ContractRedFlags } from './red-flags-schema.js';

export const procurementRedFlags = defineOperation({
  name: 'procurement_red_flags',
  title: "A public contract's integrity flags",
  summary: 'Every integrity check on one contract: flagged, not flagged or not assessable, with the reason.',
  description:
    'Runs every integrity type on one contract (the `id` that procurement_contracts gives) and answers each in ' +
    'one of three states: `flagged`, `not_flagged`, or `not_assessable` when the record lacks a field the check ' +
    'needs — never silence. Each assessment gives its stable code and version, the reason, the values compared, ' +
    'the thresholds, the legal basis where one applies and what the data cannot tell. A flag is an indicator for ' +
    'a closer look, never an accusation. Types and methods: signal_types (family `integrity`), and the reference ' +
    'page at /docs#integrity.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { id: Type.Integer({ minimum: 1, description: 'Contract id.', examples: [1] }) },
    { additionalProperties: false },
  ),
  output: ContractRedFlags,
  rest: { path: '/v1/procurement/contracts/:id/red-flags' },
  cache: 'data',
  examples: [{ title: 'The flags of contract 1', input: { id: 1 } }],
  async handler(input, { store, reference }) {
    const contract = await foundContract(store, input.id);
    const assessments = await assessContract(contract, await integrityContext(store, reference));
    const counts = Object.fromEntries(
      ASSESSMENT_STATES.map((state) => [state, assessments.filter((a) => a.state === state).length]),
    ) as Record<(typeof ASSESSMENT_STATES)[number], number>;
    return {
      contract_id: contract.id,
      source: contract.source,
      synthetic: isDemoProcurementSource(contract.source),
      counts,
      assessments,
    };
  },
});
