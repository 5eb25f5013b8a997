import { Type } from '@sinclair/typebox';
import { defineOperation } from '../../core/operation.js';
import { MunicipalityRef } from '../../core/schemas.js';
import { isDemoIndicatorSource } from '../../lib/provenance.js';
import { Category } from '../indicators/schemas.js';
import { servedValue } from '../indicators/values.js';
import { findMunicipality } from './find-municipality.js';
import { MunicipalityIndicatorValue } from './schemas.js';

export const municipalitiesIndicators = defineOperation({
  name: 'municipalities_indicators',
  title: "A municipality's latest indicator values",
  summary: 'The latest value of every indicator for one municipality (not paged).',
  description:
    'Returns, for one municipality (code, slug or name), ' +
    'the latest value of each indicator it has data for, ordered by ' +
    'indicator key, optionally only one category. The answer is a JSON array ' +
    '(wrapped as `{"items": [...]}` on A2A and MCP).',
  domain: 'indicators',
  scope: 'indicators:read',
  input: Type.Object({ code: MunicipalityRef, category: Type.Optional(Category) }, { additionalProperties: false }),
  output: Type.Array(MunicipalityIndicatorValue),
  rest: { path: '/v1/municipalities/:code/indicators' },
  cache: 'data',
  examples: [{ title: 'Everything about Coimbra', input: { code: 'coimbra' } }],
  async handler(input, { reference, store, caller }) {
    const municipality = findMunicipality(reference, input.code);
    const rows = await store.latestForMunicipality(municipality.id);
    return rows.flatMap((row) => {
      const indicator = reference.indicator(row.indicator);
      if (!indicator || (input.category !== undefined && indicator.category !== input.category)) return [];
      return [
        {
          indicator: indicator.key,
          name: indicator.name,
          category: indicator.category,
          reference_date: row.reference_date,
          ...servedValue(row, caller.plan),
          synthetic: isDemoIndicatorSource(indicator.source),
        },
      ];
    });
  },
});
