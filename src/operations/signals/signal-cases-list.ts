import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import { ChangeOrder, changeInstant, instantPosition, listPosition } from '../shared/instants.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { indicatorSynthetic, toCaseSummary } from './resources.js';
import { SignalCaseSummary, SignalFamilyKey } from './schemas.js';

export const signalCasesList = defineOperation({
  name: 'signal_cases_list',
  title: 'Search signal cases',
  summary:
    'Cases — signals about the same thing (one procedure from notice to contract, one indicator episode) ' +
    '— newest first.',
  description:
    'Lists signal cases: the signals about one thing grouped together (a procurement procedure from its notice to ' +
    'its award, contract and amendments; an indicator episode), with the current stage, status, amount and how ' +
    'many signals it holds (`source_count`). Ordered by last_seen_at descending, then id descending; page with ' +
    '`cursor`. `family`; `municipality` (code, slug or name, repeatable): in any of them. ' +
    'A case of a single signal is ' +
    'episodic and left out unless `include_episodic=true`. `updated_since`: only cases added or changed after it, ' +
    'oldest change first (for syncing copies). signal_cases_get gives a case’s history and its signals.',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object(
    {
      family: Type.Optional(SignalFamilyKey),
      municipality: Type.Optional(MunicipalityRefs('In this municipality (code, slug or name).')),
      include_episodic: Type.Optional(
        Type.Boolean({ default: false, description: 'Also cases of a single signal (default false).' }),
      ),
      ...ChangeOrder('cases'),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(SignalCaseSummary, 'SignalCaseSummary'),
  rest: { path: '/v1/signal-cases' },
  cache: 'data',
  examples: [
    { title: 'Latest cases', input: { limit: 20 } },
    {
      title: 'Procurement cases in Lisboa, single signals too',
      input: { family: 'procurement', municipality: ['1106'], include_episodic: true },
    },
  ],
  async handler(input, { reference, store, paging }) {
    const updatedSince = changeInstant(input.updated_since);
    const rows = await store.listCases(
      {
        family: input.family,
        municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
        includeEpisodic: input.include_episodic === true,
        updatedSince,
      },
      { after: instantPosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(
      rows.map((c) => toCaseSummary(c, indicatorSynthetic(reference))),
      listPosition(updatedSince, (c) => [c.last_seen_at, c.id]),
    );
  },
});
