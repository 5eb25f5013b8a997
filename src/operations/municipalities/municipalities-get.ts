import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { MunicipalityRef } from '../../core/schemas.js';
import { findMunicipality } from './find-municipality.js';
import { MunicipalitySummary, toMunicipalitySummary } from './schemas.js';

export const municipalitiesGet = defineOperation({
  name: 'municipalities_get',
  title: 'Get a municipality',
  summary: 'One municipality by its 4-digit code or its slug.',
  description:
    'Returns one municipality (code, slug, name, district, NUTS II and III, integer id). Accepts the code (`1106`) or the slug (`lisboa`).',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ code: MunicipalityRef }, { additionalProperties: false }),
  output: MunicipalitySummary,
  rest: { path: '/v1/municipalities/:code' },
  cache: 'data',
  examples: [
    { title: 'Lisboa by code', input: { code: '1106' } },
    { title: 'By slug', input: { code: 'vila-nova-de-gaia' } },
  ],
  handler(input, { reference }) {
    return toMunicipalitySummary(findMunicipality(reference, input.code));
  },
});
