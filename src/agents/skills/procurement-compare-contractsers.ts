import { Type } from '@sinclair/typebox';
import { StringEnum } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import { taxNumberFacts } from '../../operations/procurement/entity-identity.js';
import { checkTaxNumber } from '../../operations/procurement/inputs.js';
import { toParty } from '../../operations/procurement/resources.js';
import type { EntityRecord } from '../../store/procurement-records.js';
import { contractCitation, euros, formatEuros, restUrl } from '../citations.js';
import { defineSkill, type SkillContext } from '../skill.js';
import { MunicipalityInput, municipalityOf } from './inputs.js';

const DIMENSIONS = ['total_eur', 'contracts', 'average_eur', 'eur_per_capita'] as const;
type Dimension = (typeof DIMENSIONS)[number];
const SHARED_CONTRACTS = 20;

/**
 * The id the interface gives this skill (`contractsers`) is kept as published: agents find skills by id, and the
 * card is authoritative (docs/agents.md, Skills).
 */
export const procurementCompareContractsers = defineSkill({
  id: 'procurement_compare_contractsers',
  title: 'Compare municipalities or two contracting parties',
  description:
    'Either municipalities (`municipalities`, 2 to 10) compared on one `dimension` (total_eur, contracts, ' +
    'average_eur, eur_per_capita with the 2021 census population) in one `year` (default: last year), ranked; or two ' +
    'tax numbers (`nifs`) side by side — as buyer and as supplier, in `year` or all time — with the contracts ' +
    'between them. Give one of `municipalities` or `nifs`. Every figure carries a citation (`source`, `rest`). ' +
    'Answers with a task.',
  tags: ['procurement'],
  answer: 'task',
  kind: 'read',
  channels: ['a2a', 'mcp'],
  procurement: true,
  input: () =>
    Type.Object(
      {
        municipalities: Type.Optional(Type.Array(MunicipalityInput, { minItems: 2, maxItems: 10, uniqueItems: true })),
        dimension: Type.Optional(
          StringEnum(DIMENSIONS, { default: 'total_eur', description: 'What municipalities are ranked on.' }),
        ),
        year: Type.Optional(
          Type.Integer({ minimum: 2000, maximum: 2100, description: 'Contracts published this year.' }),
        ),
        nifs: Type.Optional(
          Type.Array(Type.String({ pattern: '^[0-9]{9}$' }), {
            minItems: 2,
            maxItems: 2,
            uniqueItems: true,
            description: 'Two tax numbers.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
  examples: () => [
    {
      municipalities: ['lisboa', 'porto', 'braga'],
      dimension: 'eur_per_capita',
      year: new Date().getUTCFullYear() - 1,
    },
    { nifs: ['500051070', '501306099'] },
  ],
  async handler(input, ctx) {
    if ((input.municipalities === undefined) === (input.nifs === undefined)) {
      throw new ApiError('validation-error', {
        detail: 'Give either `municipalities` (2 to 10) or `nifs` (two tax numbers).',
        errors: [{ field: 'municipalities', message: 'give either municipalities or nifs, not both and not neither' }],
      });
    }
    return input.municipalities !== undefined
      ? compareMunicipalities(
          input.municipalities,
          input.dimension ?? 'total_eur',
          input.year ?? ctx.now.getUTCFullYear() - 1,
          ctx,
        )
      : compareParties(input.nifs as string[], input.year, ctx);
  },
});

async function compareMunicipalities(refs: string[], dimension: Dimension, year: number, ctx: SkillContext) {
  const { store, reference, baseUrl } = ctx;
  const municipalities = refs.map((ref, i) => municipalityOf(reference, ref, `municipalities[${i}]`));
  const from = `${year}-01-01`;
  const to = `${year}-12-31`;
  const result = await store.aggregateContracts({
    executedIn: municipalities.map((m) => m.id),
    from,
    to,
    groupBy: ['municipality'],
  });
  const rows = municipalities.map((m) => {
    const group = result.groups.find((g) => g.key.municipality === m.code);
    const contracts = group?.count ?? 0;
    const total = euros(group?.total_eur ?? 0);
    const values: Record<Dimension, number> = {
      total_eur: total,
      contracts,
      average_eur: contracts === 0 ? 0 : euros(total / contracts),
      eur_per_capita: m.population_2021 > 0 ? euros(total / m.population_2021) : 0,
    };
    return {
      municipality: { code: m.code, name: m.name, district: m.district, population_2021: m.population_2021 },
      value: values[dimension],
      contracts,
      total_eur: total,
      citation: {
        source: null,
        rest: restUrl(baseUrl, '/v1/procurement/contracts', { municipality: m.code, from, to }),
      },
    };
  });
  const ranked = [...rows]
    .sort((a, b) => b.value - a.value || a.municipality.code.localeCompare(b.municipality.code))
    .map((row, i) => ({ rank: i + 1, ...row }));
  const aggregate = restUrl(baseUrl, '/v1/procurement/aggregate', {
    executed_in: municipalities.map((m) => m.code),
    from,
    to,
    group_by: 'municipality',
  });
  return {
    data: { mode: 'municipalities', dimension, year, ranking: ranked, citation: { source: null, rest: aggregate } },
    text: [
      `Municipalities by ${dimension}, contracts published in ${year}:`,
      ...ranked.map(
        (r) =>
          `${r.rank}. ${r.municipality.name}: ${dimension.endsWith('eur') ? formatEuros(r.value) : r.value} ` +
          `(${r.contracts} contracts)`,
      ),
      `Source: ${aggregate}`,
    ].join('\n'),
  };
}

async function compareParties(nifs: string[], year: number | undefined, ctx: SkillContext) {
  const { store, baseUrl } = ctx;
  const entities: EntityRecord[] = [];
  for (const [i, nif] of nifs.entries()) {
    checkTaxNumber(nif, `nifs[${i}]`);
    const entity = await store.getEntity(nif);
    if (!entity)
      throw new ApiError('not-found', { detail: `No procurement entity with tax number ${nif} (nifs[${i}]).` });
    entities.push(entity);
  }
  const period = year === undefined ? {} : { from: `${year}-01-01`, to: `${year}-12-31` };
  const sides = await Promise.all(
    entities.map(async (e) => {
      const years = year === undefined ? undefined : (await store.entityYears(e.nif)).find((y) => y.year === year);
      const asBuyer =
        year === undefined
          ? { count: e.contracts_as_buyer, eur: e.total_as_buyer_eur }
          : { count: years?.as_buyer_count ?? 0, eur: years?.as_buyer_eur ?? 0 };
      const asSupplier =
        year === undefined
          ? { count: e.contracts_as_supplier, eur: e.total_as_supplier_eur }
          : { count: years?.as_supplier_count ?? 0, eur: years?.as_supplier_eur ?? 0 };
      return {
        nif: e.nif,
        name: e.name,
        kind: e.kind,
        ...taxNumberFacts(e.nif, e.kind),
        as_buyer: {
          contracts: asBuyer.count,
          total_eur: euros(asBuyer.eur),
          citation: { source: null, rest: restUrl(baseUrl, '/v1/procurement/contracts', { buyer: e.nif, ...period }) },
        },
        as_supplier: {
          contracts: asSupplier.count,
          total_eur: euros(asSupplier.eur),
          citation: {
            source: null,
            rest: restUrl(baseUrl, '/v1/procurement/contracts', { supplier: e.nif, ...period }),
          },
        },
        profile: restUrl(baseUrl, `/v1/procurement/entities/${e.nif}`),
      };
    }),
  );
  const [a, b] = nifs;
  const between = [
    ...(await store.listContracts({ buyer: a, supplier: b, ...period }, { limit: SHARED_CONTRACTS })),
    ...(await store.listContracts({ buyer: b, supplier: a, ...period }, { limit: SHARED_CONTRACTS })),
  ].map((c) => ({
    id: c.id,
    object: c.object,
    published_on: c.published_on,
    price_eur: c.price_eur,
    buyers: c.buyers.map(toParty),
    suppliers: c.suppliers.map(toParty),
    citation: contractCitation(baseUrl, c),
  }));
  return {
    data: { mode: 'parties', year: year ?? null, parties: sides, contracts_between: between },
    text: [
      `Side by side${year === undefined ? ' (all time)' : ` in ${year}`}:`,
      ...sides.map(
        (s) =>
          `- ${s.name} (${s.nif}): as buyer ${s.as_buyer.contracts} contracts, ${formatEuros(s.as_buyer.total_eur)}; ` +
          `as supplier ${s.as_supplier.contracts} contracts, ${formatEuros(s.as_supplier.total_eur)}`,
      ),
      `${between.length} contract(s) between them.`,
    ].join('\n'),
  };
}
