import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { MunicipalityRef, Page, Paging, WordsText } from '../../core/schemas.js';
import { queryTokens } from '../../lib/text-match.js';
import { findMunicipalityFilter, SourceFilter } from './inputs.js';
import { demoEntities, toEntity } from './resources.js';
import { Entity, EntityKind } from './schemas.js';

export const procurementEntities = defineOperation({
  name: 'procurement_entities',
  title: 'Search procurement entities',
  summary: 'Buyers, suppliers and competitors of public contracts, by tax number, with their totals.',
  description:
    'Lists the entities of public procurement — municipalities, other public bodies, companies, persons — ordered by ' +
    'tax number; page with `cursor`. `q`: words in the name or the tax number (case- and accent-insensitive, every ' +
    'word must occur). `kind`: one kind. `municipality` (code, slug or name): the entity that is that municipality. ' +
    'Totals count each contract once per role: contracts_as_buyer and total_as_buyer_eur sum the price of the ' +
    'contracts where the entity is a contracting entity; the supplier figures likewise. For a name typed by a ' +
    'person (typos, partial), procurement_lookup_entities ranks the best matches first.',
  domain: 'procurement',
  scope: 'procurement:read',
  input: Type.Object(
    {
      q: Type.Optional(WordsText('Words to find in the name or tax number.')),
      kind: Type.Optional(EntityKind),
      municipality: Type.Optional({
        ...MunicipalityRef,
        description: 'The municipality (code, slug or name) whose entity to list.',
      }),
      source: SourceFilter,
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(Entity, 'Entity'),
  rest: { path: '/v1/procurement/entities' },
  cache: 'data',
  examples: [
    { title: 'Entities named like "construções"', input: { q: 'construcoes' } },
    { title: 'Every municipality as an entity', input: { kind: 'municipality', limit: 20 } },
    { title: 'The entity of Lisboa', input: { municipality: '1106' } },
  ],
  async handler(input, { reference, store, paging }) {
    const rows = await store.listEntities(
      {
        words: input.q === undefined ? undefined : queryTokens(input.q),
        kind: input.kind,
        municipalityId: findMunicipalityFilter(reference, input.municipality, 'municipality'),
        source: input.source,
      },
      { after: paging.after as string | undefined, limit: paging.limit + 1 },
    );
    const demo = await demoEntities(
      store,
      rows.map((e) => e.nif),
    );
    const items = rows.map((e) => toEntity(e, demo.has(e.nif)));
    return paging.page(items, (e) => e.nif);
  },
});
