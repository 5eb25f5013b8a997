import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { bestMatch, byRelevance } from '../../lib/name-match.js';
import { nameKey } from '../../lib/text-match.js';
import type { EntityRecord } from '../../store/procurement-records.js';
import { taxNumberFacts } from './entity-identity.js';
import { LOOKUP_DEFAULT, LookupLimit, LookupText } from './lookup-inputs.js';
import { demoEntities } from './resources.js';
import { EntityLookupEntry } from './schemas.js';

export const procurementLookupEntities = defineOperation({
  name: 'procurement_lookup_entities',
  title: 'Find a procurement entity by name or tax number',
  summary: 'Entities matching a typed name or tax number, best first; tolerant of accents, case and typos.',
  description:
    'Resolves what a person typed to the tax numbers of buyers and suppliers. Matches on the name or the tax number: ' +
    '`exact`, `prefix` (the name or number starts with the text), `contains` (every word occurs in the name), ' +
    '`fuzzy` (a few typos), with a `score` (1 = exact) that orders them, best first. Case, accents and punctuation ' +
    'never matter. Use the `nif` with procurement_entity_profile, or as `buyer`/`supplier` of procurement_contracts. ' +
    'The answer is a JSON array (wrapped as {"items": [...]} on A2A and MCP).',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { q: LookupText('An entity name or tax number, as typed.'), limit: LookupLimit },
    { additionalProperties: false },
  ),
  output: Type.Array(EntityLookupEntry),
  rest: { path: '/v1/procurement/lookup/entities' },
  cache: 'data',
  examples: [
    { title: 'A municipality by name', input: { q: 'municipio de lisboa' } },
    { title: 'By the start of a tax number', input: { q: '5000510' } },
  ],
  async handler(input, { store }) {
    const limit = input.limit ?? LOOKUP_DEFAULT;
    const texts = [input.q, ...portalForms(input.q)];
    const candidates = new Map<string, EntityRecord>();
    for (const text of texts) for (const e of await store.lookupEntities(text, limit)) candidates.set(e.nif, e);
    const found = [...candidates.values()]
      .flatMap((e) => {
        const matches = texts.flatMap((text) => bestMatch(text, [e.name, e.nif]) ?? []);
        const match = matches.sort((a, b) => b.score - a.score)[0];
        return match ? [{ nif: e.nif, name: e.name, kind: e.kind, ...match }] : [];
      })
      .sort(byRelevance((e) => e.nif))
      .slice(0, limit);
    // A buyer the demo made up can bear a real body's name (its notices' Área Metropolitana de Lisboa): say which.
    const demo = await demoEntities(
      store,
      found.map((e) => e.nif),
    );
    return found.map(({ nif, name, kind, ...match }) => ({
      nif,
      name,
      kind,
      synthetic: demo.has(nif),
      ...match,
      ...taxNumberFacts(nif, kind),
    }));
  },
});

/**
 * What a person types for a council and the portal's name for it: "Câmara Municipal de Lisboa" (or "CM Lisboa") is
 * the buyer the portal names "Município de Lisboa". The lookup tries that form too.
 */
function portalForms(q: string): string[] {
  const key = nameKey(q);
  const council = /^(?:camara municipal|cm)\s+(.+)$/.exec(key);
  return council ? [`municipio ${council[1]}`] : [];
}
