import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { bestMatch, byRelevance } from '../../lib/name-match.js';
import { LOOKUP_DEFAULT, LookupLimit, LookupText } from './lookup-inputs.js';
import { MunicipalityLookupEntry } from './schemas.js';

export const procurementLookupMunicipalities = defineOperation({
  name: 'procurement_lookup_municipalities',
  title: 'Find a municipality by name',
  summary: 'Municipalities matching a typed name, code or slug, best first; tolerant of accents, case and typos.',
  description:
    'Resolves what a person typed to municipality codes. Each entry says how it matched: `exact` (the name, slug ' +
    'or code), `prefix` (it starts with the text: "vila" → Vila Real, Vila Nova de Gaia…), `contains` (every word ' +
    'occurs), `fuzzy` (a few typos: "lisbao" → Lisboa), with a `score` (1 = exact) that orders them, best first. ' +
    'Case, accents and hyphens never matter ("evora" is Évora, exactly). Each entry carries the municipality code ' +
    'to use in other filters and its own tax number (`nif`) to use as `buyer`. The answer is a JSON array ' +
    '(wrapped as {"items": [...]} on A2A and MCP).',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    { q: LookupText('A municipality name, slug or code, as typed.'), limit: LookupLimit },
    { additionalProperties: false },
  ),
  output: Type.Array(MunicipalityLookupEntry),
  rest: { path: '/v1/procurement/lookup/municipalities' },
  cache: 'data',
  examples: [
    { title: 'With a typo', input: { q: 'lisbao' } },
    { title: 'Without accents', input: { q: 'evora' } },
    { title: 'Every "Vila…"', input: { q: 'vila', limit: 20 } },
  ],
  handler(input, { reference }) {
    return reference.municipalities
      .flatMap((m) => {
        const match = bestMatch(input.q, [m.name, m.slug, m.code]);
        if (!match) return [];
        return [
          {
            municipality: m.code,
            slug: m.slug,
            name: m.name,
            district_name: m.district,
            nif: m.nif,
            id: m.id,
            ...match,
          },
        ];
      })
      .sort(byRelevance((e) => e.municipality))
      .slice(0, input.limit ?? LOOKUP_DEFAULT);
  },
});
