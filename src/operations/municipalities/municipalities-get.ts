import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { MunicipalityRef } from '../../core/schemas.js';
import { findMunicipality } from './find-municipality.js';
import { MunicipalitySummary, toMunicipalitySummary } from './schemas.js';

export const municipalitiesGet = defineOperation({
  name: 'municipalities_get',
  title: 'Get a municipality',
  summary: 'One municipality by its 4-digit code, its slug or its name.',
  description:
    'Returns one municipality (code, slug, name, district, NUTS II and III, integer id). Accepts the code (`1106`), ' +
    'the slug (`lisboa`) or the name, case and accents ignored (`Guimarães`, `guimaraes`, `Vila Nova de Gaia`). An ' +
    'unknown one is 404 with the closest names in `suggestions`.',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ code: MunicipalityRef }, { additionalProperties: false }),
  output: MunicipalitySummary,
  rest: { path: '/v1/municipalities/:code' },
  cache: 'data',
  examples: [
    { title: 'Lisboa by code', input: { code: '1106' } },
    { title: 'By slug', input: { code: 'vila-nova-de-gaia' } },
    { title: 'By name, without its accent', input: { code: 'guimaraes' } },
  ],
  handler(input, { reference }) {
    return toMunicipalitySummary(findMunicipality(reference, input.code));
  },
});
