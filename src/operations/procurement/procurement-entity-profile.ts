import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { foundEntity } from './found-records.js';
import { Nif } from './inputs.js';
import { demoEntities, toContractSummary, toEntity } from './resources.js';
import { EntityProfile } from './schemas.js';

const TOP_COUNTERPARTS = 10;
const RECENT_CONTRACTS = 10;

export const procurementEntityProfile = defineOperation({
  name: 'procurement_entity_profile',
  title: 'Profile of a procurement entity',
  summary: 'One entity by tax number: totals as buyer and supplier, by year, top counterparts, latest contracts.',
  description:
    'Returns one entity (by tax number, Portuguese or foreign) with its totals as buyer and as supplier, the ' +
    `same per publication year (by_year), its ${TOP_COUNTERPARTS} largest suppliers (top_suppliers, when it buys) ` +
    `and buyers (top_buyers, when it supplies) by euros of the contracts they share, and its ${RECENT_CONTRACTS} ` +
    'latest contracts in either role (newest first; procurement_contracts with `buyer` or `supplier` pages ' +
    'through all). ' +
    'Amounts are contract prices in euros without VAT, each contract counted once per role.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object({ nif: Nif }, { additionalProperties: false }),
  output: EntityProfile,
  rest: { path: '/v1/procurement/entities/:nif' },
  cache: 'data',
  examples: [{ title: 'Município de Lisboa', input: { nif: '500051070' } }],
  async handler(input, { store }) {
    const entity = await foundEntity(store, input.nif);
    const [byYear, topSuppliers, topBuyers, recent, demo] = await Promise.all([
      store.entityYears(entity.nif),
      store.entityCounterparts(entity.nif, 'buyer', TOP_COUNTERPARTS),
      store.entityCounterparts(entity.nif, 'supplier', TOP_COUNTERPARTS),
      store.listContracts({ party: entity.nif }, { limit: RECENT_CONTRACTS }),
      demoEntities(store, [entity.nif]),
    ]);
    return {
      ...toEntity(entity, demo.has(entity.nif)),
      by_year: byYear,
      top_suppliers: topSuppliers,
      top_buyers: topBuyers,
      recent_contracts: recent.map(toContractSummary),
    };
  },
});
