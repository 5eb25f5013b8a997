/**
 * The explorer's integrity map (docs/explorer.md, Integrity): per municipality, the share of its contracts that
 * detection flagged with each integrity type — the `integrity` signals (one per flagged contract and type) over the
 * contracts placed in the municipality as those signals are placed (detect/places.ts), of one kind of data: the real
 * contracts or the generated ones, never both. A municipality with fewer than MIN_CONTRACTS contracts gets no share
 * (`judged: false`): one contract more or less would move it by more than five points.
 *
 * Not on /v1, A2A or MCP: served to the explorer through the same core (plan, domain, quota: one request, the
 * answer cache), like latest-signals.ts.
 */
import { Type } from '@sinclair/typebox';
import type { OperationContext } from '../../core/context.js';
import { type AnyOperation, defineOperation } from '../../core/operation.js';
import { StringEnum } from '../../core/schemas.js';
import { INTEGRITY_TYPES } from '../../integrity/assess-contract.js';
import { DEMO_PROCUREMENT_SOURCE } from '../../lib/provenance.js';

export const INTEGRITY_SHARES_PATH = '/integrity/shares';
/** The fewest contracts a municipality needs for a share (docs/explorer.md). */
export const MIN_CONTRACTS = 20;
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
});

export function integritySharesOperation(): AnyOperation {
  return defineOperation({
    name: 'explore_integrity_shares',
    title: 'Integrity flags per municipality (explorer)',
    summary: "Per municipality, its contracts and how many detection flagged per integrity type, of one data's kind.",
    description: 'The explorer’s integrity map: see docs/explorer.md.',
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
      types: Type.Array(
        Type.Object({
          type: Type.String(),
          code: Type.String(),
          label_en: Type.String(),
          label_pt: Type.String(),
          flagged: Type.Integer({ minimum: 0, description: 'Its flagged contracts, placed or not.' }),
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
      const counts = await store.integrityFlagCounts(source);
      const codeOf = new Map(reference.municipalities.map((m) => [m.id, m.code]));
      const total = (type: string) => counts.reduce((sum, c) => sum + (c.flagged[type] ?? 0), 0);
      return {
        data,
        source,
        synthetic: data === 'generated',
        min_contracts: MIN_CONTRACTS,
        contracts: counts.reduce((sum, c) => sum + c.contracts, 0),
        types: INTEGRITY_TYPES.map((t) => ({
          type: t.key,
          code: t.code,
          label_en: t.label_en,
          label_pt: t.label_pt,
          flagged: total(t.key),
        })),
        places: counts
          .map((c) => ({
            municipality: c.municipality_id === null ? null : (codeOf.get(c.municipality_id) ?? null),
            contracts: c.contracts,
            judged: c.contracts >= MIN_CONTRACTS,
            flagged: c.flagged,
          }))
          .sort((a, b) => (a.municipality ?? '').localeCompare(b.municipality ?? '')),
      };
    },
  });
}
