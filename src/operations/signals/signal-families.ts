import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { SIGNAL_FAMILIES } from '../../signals/catalogue.js';
import { toFamilyInfo } from './resources.js';
import { SignalFamilyInfo } from './schemas.js';

export const signalFamilies = defineOperation({
  name: 'signal_families',
  title: 'Signal families',
  summary: 'The families signals are grouped in (procurement, indicators), with labels in Portuguese and English.',
  description:
    'Returns every signal family: its `key` (the `family` filter of signals_list, signal_types and ' +
    'signal_cases_list), labels and descriptions in Portuguese and English. A short, fixed list: a JSON array, not ' +
    'paged (wrapped as `{"items": [...]}` on A2A and MCP).',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object({}, { additionalProperties: false }),
  output: Type.Array(SignalFamilyInfo),
  rest: { path: '/v1/signal-families' },
  cache: 'data',
  examples: [{ title: 'Every family', input: {} }],
  handler() {
    return SIGNAL_FAMILIES.map(toFamilyInfo);
  },
});
