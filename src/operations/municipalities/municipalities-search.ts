import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging, WordsText } from '../../core/schemas.js';
import { fold, matchesTokens, queryTokens } from '../../lib/text-match.js';
import { DistrictName, findDistrict } from './find-district.js';
import { MunicipalitySummary, toMunicipalitySummary } from './schemas.js';

export const municipalitiesSearch = defineOperation({
  name: 'municipalities_search',
  title: 'Search municipalities',
  summary: 'The 308 municipalities, by code, optionally filtered by name or district.',
  description:
    'Lists municipalities with their code, slug, district and NUTS regions. `q` matches name, slug and code, ' +
    'case- and accent-insensitively ("evora" finds Évora); every word must occur. `district` takes a district or ' +
    'autonomous-region name (accents optional). Ordered by code; page with `cursor`.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      q: Type.Optional(WordsText('Words to find in the name, slug or code.')),
      district: Type.Optional(DistrictName('Only the municipalities of this district.')),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(MunicipalitySummary, 'MunicipalitySummary'),
  rest: { path: '/v1/municipalities' },
  cache: 'data',
  examples: [
    { title: 'Find by name', input: { q: 'vila nova', limit: 10 } },
    { title: 'Municipalities of a district', input: { district: 'Évora' } },
  ],
  handler(input, { reference, paging }) {
    const tokens = queryTokens(input.q);
    const district = input.district === undefined ? undefined : findDistrict(reference, input.district);
    const after = paging.after as string | undefined;
    const rows = reference.municipalities.filter(
      (m) =>
        (after === undefined || m.code > after) &&
        (district === undefined || fold(m.district) === district) &&
        matchesTokens(tokens, fold(`${m.name} ${m.slug} ${m.code}`)),
    );
    return paging.page(rows.slice(0, paging.limit + 1).map(toMunicipalitySummary), (m) => m.code);
  },
});
