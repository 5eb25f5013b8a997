import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { Page, Paging } from '../../core/schemas.js';
import {
  ChangeOrder,
  changeInstant,
  instantPosition,
  listPosition,
  SinceInstant,
  utcInstant,
} from '../shared/instants.js';
import { MunicipalityRefs, municipalityIds } from '../shared/municipality-filters.js';
import { indicatorSynthetic, toSignalSummary } from './resources.js';
import { SignalFamilyKey, SignalSummary, SignalTypeKey, ValueTier } from './schemas.js';
import { checkTypeInFamily } from './type-in-family.js';

export const signalsList = defineOperation({
  name: 'signals_list',
  title: 'Search municipal signals',
  summary:
    'Detected signals (open tenders, awards, amendments, indicator jumps…), newest first, ' +
    'by type, place, confidence and value.',
  description:
    'Lists signals: items we detected in procurement and indicator data (or received from outside detectors), each ' +
    'with a family, a type, a municipality, titles, a stage, a value tier, a confidence and what to do about it. ' +
    'Ordered by last_seen_at descending, then id descending; page with `cursor`. Every filter given must hold: ' +
    '`type` / `family` (signal_types and signal_families list them; a `type` of another family than the ' +
    '`family` given is refused, naming its family), ' +
    '`municipality` (code, slug or name, repeatable): in ' +
    'any of them, `min_confidence` (0–1, inclusive), `value_tier`. `since` is a watermark: only signals first seen ' +
    'or changed at or after it — keep the newest last_seen_at you have read and pass it next time to get what is ' +
    'new. `updated_since`: only signals added or changed after it, oldest change first (for syncing copies). ' +
    'signals_get gives one signal with its evidence; signal_cases_list groups signals about the same thing.',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object(
    {
      type: Type.Optional(SignalTypeKey),
      family: Type.Optional(SignalFamilyKey),
      municipality: Type.Optional(MunicipalityRefs('In this municipality (code, slug or name).')),
      min_confidence: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: 1,
          default: 0,
          description: 'Lowest confidence included, 0.0 to 1.0 (default 0).',
        }),
      ),
      value_tier: Type.Optional(ValueTier),
      since: SinceInstant('signals seen'),
      ...ChangeOrder('signals'),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(SignalSummary, 'SignalSummary'),
  rest: { path: '/v1/signals' },
  cache: 'data',
  examples: [
    { title: 'Latest signals', input: { limit: 20 } },
    { title: 'Open tenders in Lisboa and Porto', input: { type: 'tender_open', municipality: ['1106', 'porto'] } },
    {
      title: 'Confident procurement signals of large value',
      input: { family: 'procurement', min_confidence: 0.8, value_tier: 'large' },
    },
  ],
  async handler(input, { reference, store, paging }) {
    checkTypeInFamily(input.type, input.family);
    const updatedSince = changeInstant(input.updated_since);
    const rows = await store.listSignals(
      {
        types: input.type === undefined ? undefined : [input.type],
        family: input.family,
        municipalityIds: municipalityIds(reference, input.municipality, 'municipality'),
        minConfidence: input.min_confidence,
        valueTier: input.value_tier,
        since: input.since === undefined ? undefined : utcInstant(input.since),
        updatedSince,
      },
      { after: instantPosition(paging.after), limit: paging.limit + 1 },
    );
    return paging.page(
      rows.map((s) => toSignalSummary(s, indicatorSynthetic(reference))),
      listPosition(updatedSince, (s) => [s.last_seen_at, s.id]),
    );
  },
});
