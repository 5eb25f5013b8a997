import { Type } from '@sinclair/typebox';
import { DateString } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { bestMatch } from '../../lib/name-match.js';
import { partyTaxNumberFacts, taxNumberFacts } from '../../operations/procurement/entity-identity.js';
import { checkTaxNumber } from '../../operations/procurement/inputs.js';
import { toParty } from '../../operations/procurement/resources.js';
import { checkRange } from '../../operations/shared/ranges.js';
import type { ContractRecord, EntityRecord } from '../../store/procurement-records.js';
import type { Store } from '../../store/store.js';
import { contractCitation, euros, formatEuros, restUrl } from '../citations.js';
import { defineSkill } from '../skill.js';
import { addDays } from './inputs.js';

/** Contracts read to compute a period's figures; beyond it the answer says `truncated`. */
export const MAX_SCANNED_CONTRACTS = 10_000;
const PAGE = 500;
const TOP_SUPPLIERS = 10;

export const procurementResearchBuyer = defineSkill({
  id: 'procurement_research_buyer',
  title: 'Research a public buyer',
  description:
    'One public buyer (its 9-digit tax number, or its name) and a period (`from`/`to`, default the last 365 days): ' +
    'its profile, its contracts in the period (count and euros, per year), its largest suppliers there and its ' +
    'latest contracts. Every figure carries a citation: `source` (the record on the public portal) and `rest` (the ' +
    'REST route of this service that lists or serves the records it sums). Answers with a task.',
  tags: ['procurement'],
  answer: 'task',
  kind: 'read',
  channels: ['a2a', 'mcp'],
  procurement: true,
  input: () =>
    Type.Object(
      {
        buyer: Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'Tax number (9 digits) or name of the contracting entity.',
        }),
        from: Type.Optional({ ...DateString, description: 'First publication date included (default: 365 days ago).' }),
        to: Type.Optional({ ...DateString, description: 'Last publication date included (default: today).' }),
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 50, default: 10, description: 'Latest contracts listed.' }),
        ),
      },
      { additionalProperties: false },
    ),
  examples: () => [{ buyer: '500051070' }, { buyer: 'Município de Lisboa', from: '2024-01-01', to: '2024-12-31' }],
  async handler(input, { store, now, baseUrl }) {
    const today = now.toISOString().slice(0, 10);
    const to = input.to ?? today;
    const from = input.from ?? addDays(to, -365);
    checkRange(from, to, 'from', 'to');
    const buyer = await findBuyer(store, input.buyer);
    const { contracts, truncated } = await contractsOf(store, buyer.nif, from, to);

    const listUrl = (query: Record<string, unknown>) =>
      restUrl(baseUrl, '/v1/procurement/contracts', { buyer: buyer.nif, ...query });
    const total = sum(contracts);
    const byYear = new Map<number, ContractRecord[]>();
    for (const c of contracts) {
      const year = Number((c.published_on ?? '').slice(0, 4));
      byYear.set(year, [...(byYear.get(year) ?? []), c]);
    }
    const suppliers = new Map<string, { nif: string; name: string; contracts: ContractRecord[] }>();
    for (const c of contracts) {
      for (const s of c.suppliers) {
        if (!s.nif) continue;
        const entry = suppliers.get(s.nif) ?? { nif: s.nif, name: s.name, contracts: [] };
        entry.contracts.push(c);
        suppliers.set(s.nif, entry);
      }
    }
    const topSuppliers = [...suppliers.values()]
      .map((s) => ({
        nif: s.nif,
        name: s.name,
        ...partyTaxNumberFacts(s.nif),
        contracts: s.contracts.length,
        total_eur: sum(s.contracts),
      }))
      .sort((a, b) => b.total_eur - a.total_eur || b.contracts - a.contracts || a.nif.localeCompare(b.nif))
      .slice(0, TOP_SUPPLIERS)
      .map((s) => ({ ...s, citation: { source: null, rest: listUrl({ supplier: s.nif, from, to }) } }));
    const latest = contracts.slice(0, input.limit ?? 10).map((c) => ({
      id: c.id,
      object: c.object,
      published_on: c.published_on,
      procedure_type: c.procedure_type,
      price_eur: c.price_eur,
      suppliers: c.suppliers.map(toParty),
      citation: contractCitation(baseUrl, c),
    }));
    const data = {
      buyer: {
        nif: buyer.nif,
        name: buyer.name,
        kind: buyer.kind,
        ...taxNumberFacts(buyer.nif, buyer.kind),
        municipality: buyer.municipality,
        all_time: {
          contracts: buyer.contracts_as_buyer,
          total_eur: buyer.total_as_buyer_eur,
          citation: { source: null, rest: restUrl(baseUrl, `/v1/procurement/entities/${buyer.nif}`) },
        },
      },
      period: { from, to },
      totals: {
        contracts: contracts.length,
        total_eur: total,
        citation: { source: null, rest: listUrl({ from, to }) },
      },
      by_year: [...byYear.entries()]
        .sort(([a], [b]) => a - b)
        .map(([year, list]) => {
          const yearFrom = from > `${year}-01-01` ? from : `${year}-01-01`;
          const yearTo = to < `${year}-12-31` ? to : `${year}-12-31`;
          return {
            year,
            contracts: list.length,
            total_eur: sum(list),
            citation: { source: null, rest: listUrl({ from: yearFrom, to: yearTo }) },
          };
        }),
      top_suppliers: topSuppliers,
      latest_contracts: latest,
      truncated,
    };
    const text = [
      `${buyer.name} (${buyer.nif}), ${from} to ${to}: ${contracts.length} contracts, ${formatEuros(total)}` +
        `${truncated ? ' (first contracts only)' : ''}.`,
      ...topSuppliers
        .slice(0, 3)
        .map((s) => `- supplier ${s.name} (${s.nif}): ${s.contracts} contracts, ${formatEuros(s.total_eur)}`),
      ...latest
        .slice(0, 3)
        .map((c) => `- ${c.published_on} ${c.object}: ${formatEuros(c.price_eur)} [${c.citation.rest}]`),
      `Source list: ${data.totals.citation.rest}`,
    ].join('\n');
    return { data, text };
  },
});

/** By tax number, or the best match of a name among entities that buy. */
async function findBuyer(store: Store, text: string): Promise<EntityRecord> {
  const trimmed = text.trim();
  if (/^[0-9]{9}$/.test(trimmed)) {
    checkTaxNumber(trimmed, 'buyer'); // a mistyped number is said as one, as the data API says it
    const entity = await store.getEntity(trimmed);
    if (entity) return entity;
    throw new ApiError('not-found', { detail: `No procurement entity with tax number ${trimmed}.` });
  }
  const ranked = (await store.lookupEntities(trimmed, 20))
    .filter((e) => e.contracts_as_buyer > 0)
    .map((e) => ({ e, match: bestMatch(trimmed, [e.name, e.nif]) }))
    .filter((r) => r.match !== undefined)
    .sort((a, b) => (b.match?.score ?? 0) - (a.match?.score ?? 0) || b.e.contracts_as_buyer - a.e.contracts_as_buyer);
  if (ranked.length === 0) throw new ApiError('not-found', { detail: `No public buyer matches "${trimmed}".` });
  return ranked[0].e;
}

async function contractsOf(
  store: Store,
  nif: string,
  from: string,
  to: string,
): Promise<{ contracts: ContractRecord[]; truncated: boolean }> {
  const contracts: ContractRecord[] = [];
  let after: { date: string | null; id: number } | undefined;
  for (;;) {
    const page = await store.listContracts({ buyer: nif, from, to }, { after, limit: PAGE });
    contracts.push(...page);
    if (page.length < PAGE) return { contracts, truncated: false };
    if (contracts.length >= MAX_SCANNED_CONTRACTS) return { contracts, truncated: true };
    const last = page[page.length - 1];
    after = { date: last.published_on, id: last.id };
  }
}

function sum(contracts: readonly ContractRecord[]): number {
  return euros(contracts.reduce((total, c) => total + (c.price_eur ?? 0), 0));
}
