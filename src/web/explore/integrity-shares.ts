/**
 * The explorer's integrity map (docs/explorer.md, Integrity): per municipality, the share of its contracts that
 * detection flagged with each integrity type — the `integrity` signals (one per flagged contract and type) over the
 * contracts placed in the municipality as those signals are placed (detect/places.ts), of one kind of data: the real
 * contracts or the generated ones, never both. A municipality with fewer than MIN_CONTRACTS contracts gets no share
 * (`judged: false`): one contract more or less would move it by more than five points. Beside the flags, whether
 * each type can judge a municipality's contracts at all: its SAMPLE newest contracts are assessed as
 * procurement_red_flags assesses them, and the answer says how many of them each type could not assess
 * (`not_assessable`, with the reason the red flags give most): on the real copy, the types that need notices,
 * competitors or a base price cannot judge most records, and a share of 0 % flagged there is no clean bill.
 *
 * Not on /v1, A2A or MCP: served to the explorer through the same core (plan, domain, quota: one request, the
 * answer cache), like latest-signals.ts.
 */
import { Type } from '@sinclair/typebox';
import type { OperationContext } from '../../core/context.js';
import { type AnyOperation, defineOperation } from '../../core/operation.js';
import { StringEnum } from '../../core/schemas.js';
import { INTEGRITY_TYPES } from '../../integrity/assess-contract.js';
import { assessContracts } from '../../integrity/assess-contracts.js';
import { DEMO_PROCUREMENT_SOURCE } from '../../lib/provenance.js';
import { integrityContext } from '../../operations/procurement/integrity-context.js';
import type { IntegrityPlaceCount } from '../../store/signal-queries.js';

export const INTEGRITY_SHARES_PATH = '/integrity/shares';
/** The fewest contracts a municipality needs for a share (docs/explorer.md). */
export const MIN_CONTRACTS = 20;
/**
 * The contracts assessed per municipality (its newest) to tell whether a type can judge its contracts: as many as a
 * share needs, so that "most of them" is a majority of a share's worth of contracts.
 */
export const SAMPLE = MIN_CONTRACTS / 2;
/** Contracts assessed together (their amendments and notices read at once). */
const ASSESS = 250;
/**
 * Batches assessed at once: the checks that compare a contract with its buyer's others wait on the store for most of
 * their time (on PostgreSQL, 35 s for 4 320 contracts one batch after another), which concurrent batches overlap.
 */
const CONCURRENT = 4;
/** Which contracts each kind of data is: the portal's (the real copy and its syncs) or the demo's. */
const SOURCE_OF = { real: 'base', generated: DEMO_PROCUREMENT_SOURCE } as const;

const Place = Type.Object({
  municipality: Type.Union([Type.String(), Type.Null()], {
    description: "The municipality's code; null for the contracts placed in none.",
  }),
  contracts: Type.Integer({ minimum: 0, description: 'The contracts of this data placed there.' }),
  judged: Type.Boolean({ description: `Whether it has at least ${MIN_CONTRACTS} contracts: else no share is given.` }),
  flagged: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: 'Per integrity type, the flagged contracts placed there (types with none are left out).',
  }),
  sampled: Type.Integer({
    minimum: 0,
    description:
      `Its newest contracts assessed (at most ${SAMPLE}) to tell whether each type can judge them; 0 where no ` +
      'share is given (too few contracts, or no municipality).',
  }),
  not_assessable: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
    description: 'Per integrity type, how many of the sampled contracts it could not assess (none: left out).',
  }),
});

export function integritySharesOperation(): AnyOperation {
  return defineOperation({
    name: 'explore_integrity_shares',
    title: 'Integrity flags per municipality (explorer)',
    summary: "Per municipality, its contracts and how many detection flagged per integrity type, of one data's kind.",
    description:
      'What the explorer’s integrity map draws: per municipality, its contracts of the data chosen (real or ' +
      'generated), how many detection flagged per integrity type, and how many of its newest contracts (a sample) ' +
      'each type could not assess: a municipality a type cannot judge is drawn as such, never as 0 %.',
    domain: 'procurement',
    scope: 'procurement:read',
    input: Type.Object(
      {
        data: Type.Optional(
          StringEnum(['real', 'generated'] as const, {
            description: 'The real contracts (the default) or the generated ones; never both.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      data: StringEnum(['real', 'generated'] as const),
      source: Type.String({ description: 'The procurement source counted.' }),
      synthetic: Type.Boolean(),
      min_contracts: Type.Integer({ description: 'The fewest contracts a municipality needs for a share.' }),
      contracts: Type.Integer({ minimum: 0, description: 'Every contract of this data, placed or not.' }),
      sample: Type.Integer({ description: 'The most contracts assessed in one municipality (its newest).' }),
      sampled: Type.Integer({ minimum: 0, description: 'The contracts assessed, every place together.' }),
      types: Type.Array(
        Type.Object({
          type: Type.String(),
          code: Type.String(),
          label_en: Type.String(),
          label_pt: Type.String(),
          flagged: Type.Integer({ minimum: 0, description: 'Its flagged contracts, placed or not.' }),
          not_assessable: Type.Integer({
            minimum: 0,
            description: 'Of every sampled contract (`sampled`), those it could not assess.',
          }),
          reason: Type.Union([Type.String(), Type.Null()], {
            description: 'Why it could not assess them: the reason its red flags give most often; null when none.',
          }),
          reason_pt: Type.Union([Type.String(), Type.Null()], {
            description: 'The same reason in Portuguese (the red flags’ `reason_pt`); null when none.',
          }),
        }),
        { description: 'Every integrity type, in the catalogue order.' },
      ),
      places: Type.Array(Place),
    }),
    rest: { path: INTEGRITY_SHARES_PATH },
    cache: 'data',
    examples: [],
    async handler(input: { data?: 'real' | 'generated' }, { store, reference }: OperationContext) {
      const data = input.data ?? 'real';
      const source = SOURCE_OF[data];
      const counts = (await store.integrityFlagCounts(source, SAMPLE)).map((c) =>
        // Only a municipality with a share to give is drawn "not assessable" instead: no other's sample is assessed.
        c.municipality_id !== null && c.contracts >= MIN_CONTRACTS ? c : { ...c, sample: [] },
      );
      const unjudged = await notAssessable(store, reference, counts);
      const codeOf = new Map(reference.municipalities.map((m) => [m.id, m.code]));
      const total = (type: string) => counts.reduce((sum, c) => sum + (c.flagged[type] ?? 0), 0);
      return {
        data,
        source,
        synthetic: data === 'generated',
        min_contracts: MIN_CONTRACTS,
        contracts: counts.reduce((sum, c) => sum + c.contracts, 0),
        sample: SAMPLE,
        sampled: counts.reduce((sum, c) => sum + c.sample.length, 0),
        types: INTEGRITY_TYPES.map((t) => ({
          type: t.key,
          code: t.code,
          label_en: t.label_en,
          label_pt: t.label_pt,
          flagged: total(t.key),
          not_assessable: unjudged.total.get(t.key) ?? 0,
          ...commonestReason(unjudged.reasons.get(t.key)),
        })),
        places: counts
          .map((c) => ({
            municipality: c.municipality_id === null ? null : (codeOf.get(c.municipality_id) ?? null),
            contracts: c.contracts,
            judged: c.contracts >= MIN_CONTRACTS,
            flagged: c.flagged,
            sampled: c.sample.length,
            not_assessable: Object.fromEntries(unjudged.byPlace.get(c) ?? []),
          }))
          .sort((a, b) => (a.municipality ?? '').localeCompare(b.municipality ?? '')),
      };
    },
  });
}

/**
 * Each place's sample assessed as procurement_red_flags assesses a contract: per place and type, the contracts the
 * type could not assess; per type, their total and how often each reason was given.
 */
async function notAssessable(
  store: OperationContext['store'],
  reference: OperationContext['reference'],
  counts: readonly IntegrityPlaceCount[],
) {
  const placeOf = new Map<number, IntegrityPlaceCount>();
  for (const c of counts) for (const id of c.sample) placeOf.set(id, c);
  const byPlace = new Map<IntegrityPlaceCount, Map<string, number>>();
  const total = new Map<string, number>();
  const reasons = new Map<string, Map<string, Given>>();
  const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  const ids = [...placeOf.keys()];
  const batches: number[][] = [];
  for (let i = 0; i < ids.length; i += ASSESS) batches.push(ids.slice(i, i + ASSESS));
  const assessBatch = async (batch: number[]) => {
    // A memo per batch: the reads its checks share, let go once it is assessed.
    const ctx = await integrityContext(store, reference);
    return assessContracts(await store.getContracts(batch), ctx);
  };
  const assessed = [];
  for (let i = 0; i < batches.length; i += CONCURRENT) {
    for (const done of await Promise.all(batches.slice(i, i + CONCURRENT).map(assessBatch))) assessed.push(...done);
  }
  for (const { contract, assessments } of assessed) {
    const place = placeOf.get(contract.id) as IntegrityPlaceCount;
    const here = byPlace.get(place) ?? new Map<string, number>();
    byPlace.set(place, here);
    for (const a of assessments) {
      if (a.state !== 'not_assessable') continue;
      add(here, a.type);
      add(total, a.type);
      const why = reasons.get(a.type) ?? new Map<string, Given>();
      reasons.set(a.type, why);
      const given = why.get(a.reason) ?? { count: 0, reason_pt: a.reason_pt };
      why.set(a.reason, { ...given, count: given.count + 1 });
    }
  }
  return { byPlace, total, reasons };
}

/** How often a reason (in English, the key it is counted by) was given, and the Portuguese written with it. */
interface Given {
  count: number;
  reason_pt: string;
}

/** The reason given most often, in both languages as the red flags give it; null in both when none was. */
function commonestReason(given: ReadonlyMap<string, Given> | undefined) {
  let best: [string, Given] | undefined;
  for (const entry of given ?? []) if (!best || entry[1].count > best[1].count) best = entry;
  return { reason: best?.[0] ?? null, reason_pt: best?.[1].reason_pt ?? null };
}
