/**
 * procurement_entity_red_flags: the integrity flags of a buyer's contracts in a period (docs/integrity.md, "A buyer
 * and a period"): each contract assessed as procurement_red_flags assesses it (assessContract), then counted per
 * type and state. Bounded: the newest MAX_CONTRACTS contracts of the period, their amendments and notices read in a
 * few batched reads rather than one getContract per contract, the buyer's contracts read once for the checks that
 * compare with them, and one memo for the answer, so the corpus statistics a check compares with are read once.
 */
import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { INTEGRITY_TYPES } from '../../integrity/assess-contract.js';
import { assessContracts } from '../../integrity/assess-contracts.js';
import type { Said } from '../../integrity/assessment.js';
import { preloadBuyerContracts } from '../../integrity/buyer-contracts.js';
import { counted } from '../../integrity/said.js';
import { restReference } from '../../lib/errors.js';
import { subjectName } from '../../lib/portuguese-articles.js';
import { isDemoProcurementSource } from '../../lib/provenance.js';
import type { ContractFilter, DatePosition } from '../../store/procurement-queries.js';
import type { ContractRecord, EntityRecord } from '../../store/procurement-records.js';
import type { Store } from '../../store/store.js';
import { FromDate, ToDate } from '../shared/date-range.js';
import { checkRange } from '../shared/ranges.js';
import { foundEntity } from './found-records.js';
import { Nif } from './inputs.js';
import { integrityContext } from './integrity-context.js';
import { procurementContracts } from './procurement-contracts.js';
import { procurementRedFlags } from './procurement-red-flags.js';
import { type ASSESSMENT_STATES, EntityRedFlags } from './red-flags-schema.js';
import { demoEntities } from './resources.js';

/** The most contracts one answer assesses (the newest of the period). */
export const MAX_CONTRACTS = 1000;
const PAGE = 250;

type State = (typeof ASSESSMENT_STATES)[number];
const noCounts = (): Record<State, number> => ({ flagged: 0, not_flagged: 0, not_assessable: 0 });

export const procurementEntityRedFlags = defineOperation({
  name: 'procurement_entity_red_flags',
  title: "A buyer's integrity flags in a period",
  summary: "Every integrity check on a buyer's contracts in a period: counts per type and state, flagged contracts.",
  description:
    'Runs every integrity type on the contracts where the entity (by tax number, Portuguese or foreign) is a ' +
    'buyer, published between `from` and `to` (inclusive; both optional — without them, all its contracts), as ' +
    'procurement_red_flags runs them on one contract, and answers how many contracts are in each state ' +
    '(`flagged`, `not_flagged`, `not_assessable`) per type, and the flagged contracts with the types flagged on ' +
    `each (procurement_red_flags gives the reasons). At most the newest ${MAX_CONTRACTS} ` +
    'contracts of the period are assessed: `truncated` says when it held more. A flag is an indicator for a ' +
    'closer look, never an accusation. Types and methods: signal_types (family `integrity`), and the reference page ' +
    'at /docs#integrity.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { nif: Nif, from: FromDate('publication date'), to: ToDate('publication date') },
    { additionalProperties: false },
  ),
  output: EntityRedFlags,
  rest: { path: '/v1/procurement/entities/:nif/red-flags' },
  cache: 'data',
  examples: [
    { title: 'Município de Lisboa', input: { nif: '500051070' } },
    { title: 'Município de Lisboa in 2024', input: { nif: '500051070', from: '2024-01-01', to: '2024-12-31' } },
  ],
  async handler(input, { store, reference }) {
    checkRange(input.from, input.to, 'from', 'to');
    const entity = await foundEntity(store, input.nif);
    const { contracts, truncated } = await newestContracts(store, {
      buyer: entity.nif,
      from: input.from,
      to: input.to,
    });
    const ctx = await integrityContext(store, reference);
    // The checks that compare a contract with the buyer's others then read them from memory, not once per supplier.
    for (const source of new Set(contracts.map((c) => c.source))) await preloadBuyerContracts(ctx, source, entity.nif);
    const byType = new Map(INTEGRITY_TYPES.map((t) => [t.key, noCounts()]));
    const flagged = [];
    for (const { contract, assessments } of await assessContracts(contracts, ctx)) {
      for (const a of assessments) (byType.get(a.type) ?? noCounts())[a.state] += 1;
      const types = assessments.filter((a) => a.state === 'flagged').map((a) => a.type);
      if (types.length === 0) continue;
      flagged.push({
        id: contract.id,
        source: contract.source,
        synthetic: isDemoProcurementSource(contract.source),
        object: contract.object,
        price_eur: contract.price_eur,
        published_on: contract.published_on,
        flagged_types: types,
      });
    }
    const note = supplierOnlyNote(entity);
    // Counts of generated contracts are not real data, and say so even when no contract of theirs is flagged.
    const synthetic =
      contracts.length > 0
        ? contracts.some((c) => isDemoProcurementSource(c.source))
        : (await demoEntities(store, [entity.nif])).has(entity.nif);
    return {
      nif: entity.nif,
      name: entity.name,
      synthetic,
      from: input.from ?? null,
      to: input.to ?? null,
      contracts_assessed: contracts.length,
      truncated,
      contracts_flagged: flagged.length,
      by_type: INTEGRITY_TYPES.map((t) => ({
        type: t.key,
        code: t.code,
        version: t.version,
        label_pt: t.label_pt,
        label_en: t.label_en,
        counts: byType.get(t.key) ?? noCounts(),
      })),
      flagged_contracts: flagged,
      note: note?.en ?? null,
      note_pt: note?.pt ?? null,
    };
  },
});

/**
 * Zeros for a supplier (MEO: a buyer in no contract, a supplier in 115, behind hundreds of R048 flags) must not read
 * as a clean bill: say what was assessed and where the flags about it are.
 */
function supplierOnlyNote(entity: EntityRecord): Said | null {
  if (entity.contracts_as_buyer > 0 || entity.contracts_as_supplier === 0) return null;
  const n = entity.contracts_as_supplier;
  // Named so that a caller can follow them on any channel: the tool or skill, then the REST address.
  const contracts = `${restReference(procurementContracts)}?supplier=${entity.nif}`;
  const list = (word: string) => `${procurementContracts.name} ${word} supplier=${entity.nif}; ${contracts}`;
  const flags = restReference(procurementRedFlags);
  return {
    en:
      `${entity.name} is a buyer in no contract held, so none was assessed here: the checks run on a buyer's ` +
      `contracts. It is a supplier in ${counted(n, 'contract')} (${list('with')} lists them); the flags about ` +
      "it as a supplier (R048, heterogeneous supplier) are in each of those contracts' red flags " +
      `(${procurementRedFlags.name} with the contract's id; ${flags}).`,
    pt:
      `${subjectName(entity.name)} não é entidade adjudicante em nenhum contrato do serviço, pelo que nenhum foi ` +
      'avaliado aqui: as verificações correm sobre os contratos de quem adjudica. É adjudicatário em ' +
      `${counted(n, 'contrato')} (${list('com')} lista-os); os indícios sobre ele como adjudicatário (R048, ` +
      'fornecedor heterogéneo) estão na avaliação de integridade de cada um desses contratos ' +
      `(${procurementRedFlags.name} com o id do contrato; ${flags}).`,
  };
}

/** The newest MAX_CONTRACTS contracts of the filter (keyset pages), and whether there were more. */
async function newestContracts(
  store: Pick<Store, 'listContracts'>,
  filter: ContractFilter,
): Promise<{ contracts: ContractRecord[]; truncated: boolean }> {
  const contracts: ContractRecord[] = [];
  let after: DatePosition | undefined;
  for (;;) {
    // One more than the cap, to learn whether the period holds more.
    const limit = Math.min(PAGE, MAX_CONTRACTS + 1 - contracts.length);
    const page = await store.listContracts(filter, { after, limit });
    contracts.push(...page);
    const last = page.at(-1);
    if (page.length < limit || contracts.length > MAX_CONTRACTS || !last) break;
    after = { date: last.published_on, id: last.id };
  }
  return { contracts: contracts.slice(0, MAX_CONTRACTS), truncated: contracts.length > MAX_CONTRACTS };
}
