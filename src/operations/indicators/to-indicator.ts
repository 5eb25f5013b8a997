/** Records → resources of the indicators domain. */
import { DEMO_INDICATOR_SUMMARY_NOTE, isDemoIndicatorSource } from '../../lib/provenance.js';
import type { IndicatorRecord } from '../../store/records.js';

export function toIndicatorSummary(i: IndicatorRecord) {
  return {
    key: i.key,
    name: i.name,
    name_pt: i.name_pt,
    category: i.category,
    unit: i.unit,
    unit_display: i.unit_display,
    direction: i.direction,
    source: i.source,
    synthetic: isDemoIndicatorSource(i.source),
    country_code: i.country_code,
    value_domain: i.value_domain,
    treatment: i.treatment,
  } as const;
}

export function toIndicatorDetail(i: IndicatorRecord) {
  const generated = isDemoIndicatorSource(i.source);
  const noted = (note: string, summary: string | null) =>
    generated ? [note, summary].filter(Boolean).join(' ') : summary;
  return {
    ...toIndicatorSummary(i),
    summary: noted(DEMO_INDICATOR_SUMMARY_NOTE.en, i.summary),
    summary_pt: noted(DEMO_INDICATOR_SUMMARY_NOTE.pt, i.summary_pt),
    currency_code: i.currency_code,
    scale_factor: i.scale_factor,
    per_capita: i.per_capita,
    unit_description: i.unit_description,
  };
}
