import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { findIndicator } from './find-indicator.js';
import { IndicatorDetail, IndicatorKey } from './schemas.js';
import { toIndicatorDetail } from './to-indicator.js';

export const indicatorsGet = defineOperation({
  name: 'indicators_get',
  title: 'Get an indicator',
  summary: 'One indicator with its description, unit, currency and per-capita metadata.',
  description:
    'Returns the full description of one indicator: names and summaries in English and Portuguese, unit and how to ' +
    'display it, direction (whether higher is better), value domain, currency, scale factor ' +
    'and whether it is per capita.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ key: IndicatorKey }, { additionalProperties: false }),
  output: IndicatorDetail,
  rest: { path: '/v1/indicators/:key' },
  cache: 'data',
  examples: [{ title: 'Resident population', input: { key: 'population' } }],
  handler(input, { reference }) {
    return toIndicatorDetail(findIndicator(reference, input.key));
  },
});
