import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging, WordsText } from '../../core/schemas.js';
import { fold, matchesTokens, queryTokens } from '../../lib/text-match.js';
import { Category, IndicatorSummary } from './schemas.js';
import { toIndicatorSummary } from './to-indicator.js';

export const indicatorsList = defineOperation({
  name: 'indicators_list',
  title: 'List indicators',
  summary: 'The indicator catalogue, by key, optionally filtered by category or text.',
  description:
    'Lists the indicators the service holds (key, names in English and Portuguese, category, unit, direction). ' +
    'Use the `key` with indicators_series, indicators_snapshot and indicators_stats. `q` matches names and keys, ' +
    'case- and accent-insensitively; every word must occur. Ordered by key; page with `cursor`.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object(
    {
      category: Type.Optional(Category),
      q: Type.Optional(WordsText('Words to find in the names or key.')),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(IndicatorSummary, 'IndicatorSummary'),
  rest: { path: '/v1/indicators' },
  cache: 'data',
  examples: [
    { title: 'Demography indicators', input: { category: 'demography' } },
    { title: 'Find by words', input: { q: 'natalidade' } },
  ],
  handler(input, { reference, paging }) {
    const tokens = queryTokens(input.q);
    const after = paging.after as string | undefined;
    const rows = reference.indicators.filter(
      (i) =>
        (input.category === undefined || i.category === input.category) &&
        (after === undefined || i.key > after) &&
        matchesTokens(tokens, fold(`${i.key} ${i.name} ${i.name_pt}`)),
    );
    return paging.page(rows.slice(0, paging.limit + 1).map(toIndicatorSummary), (i) => i.key);
  },
});
