import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { SIGNAL_TYPES } from '../../signals/catalogue.js';
import { toTypeInfo } from './resources.js';
import { SignalFamilyKey, SignalTypeInfo } from './schemas.js';

export const signalTypes = defineOperation({
  name: 'signal_types',
  title: 'Signal types',
  summary: 'The types of signal we detect (tender_open, contract_awarded, indicator_jump…), optionally of one family.',
  description:
    'Returns the signal types: their `key` (the `type` filter of signals_list), family, labels in Portuguese and ' +
    'English and a description of what makes a signal of that type. `family` keeps the types of one family. A JSON ' +
    'array, not paged (wrapped as `{"items": [...]}` on A2A and MCP).',
  domain: 'signals',
  scope: 'signals:read',
  input: Type.Object({ family: Type.Optional(SignalFamilyKey) }, { additionalProperties: false }),
  output: Type.Array(SignalTypeInfo),
  rest: { path: '/v1/signal-types' },
  cache: 'data',
  examples: [
    { title: 'Every type', input: {} },
    { title: 'Procurement types', input: { family: 'procurement' } },
  ],
  handler(input) {
    return SIGNAL_TYPES.filter((t) => input.family === undefined || t.family === input.family).map(toTypeInfo);
  },
});
