/** Resource schemas of municipalities, plus the additive integer `id` (docs/decisions.md, Identifiers). */
import { Type } from '@sinclair/typebox';
import { Nullable, Synthetic } from '../../core/schemas.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { Category, Treatment } from '../indicators/schemas.js';

export const MunicipalitySummary = Type.Object(
  {
    code: Type.String({ description: "The service's stable 4-digit code (not INE's parish code)." }),
    slug: Type.String({ description: 'Alternative identifier, accepted wherever a code is.' }),
    name: Type.String(),
    district: Type.String({ description: 'District, or autonomous region for the Azores and Madeira.' }),
    nuts_ii: Type.String({ description: 'NUTS II region (2024).' }),
    nuts_iii: Type.String({ description: 'NUTS III subregion (2024).' }),
    id: Type.Integer({
      description: 'Integer id (1–308): the `municipality_id` of signals, cases, rules and matches.',
    }),
  },
  { title: 'MunicipalitySummary' },
);

export const MunicipalityIndicatorValue = Type.Object(
  {
    indicator: Type.String(),
    name: Type.String(),
    category: Category,
    reference_date: Type.String({ format: 'date' }),
    value: Type.Optional(Nullable(Type.Number())),
    treatment: Treatment,
    synthetic: Synthetic,
  },
  { title: 'MunicipalityIndicatorValue' },
);

export function toMunicipalitySummary(m: MunicipalityRecord) {
  return {
    code: m.code,
    slug: m.slug,
    name: m.name,
    district: m.district,
    nuts_ii: m.nuts_ii,
    nuts_iii: m.nuts_iii,
    id: m.id,
  };
}
