/** Store records → the resources of schemas.ts, field for field (the one place their shapes meet). */
import type { Static } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import type { IntegrityType } from '../../integrity/methodology.js';
import {
  type IndicatorIsSynthetic,
  isDemoIndicatorSource,
  isSyntheticCaseKey,
  isSyntheticSignalKey,
} from '../../lib/provenance.js';
import type { SignalFamily, SignalType } from '../../signals/catalogue.js';
import type { CaseDetailRecord, CaseRecord, SignalRecord } from '../../store/signal-records.js';
import type {
  IntegrityMethodology,
  SignalCaseDetail,
  SignalCaseSummary,
  SignalDetail,
  SignalFamilyInfo,
  SignalSummary,
  SignalTypeInfo,
} from './schemas.js';
import { withTypeTexts } from './type-texts.js';

/** Whether an indicator's data is demo data, from the catalogue held in memory (src/lib/provenance.ts). */
export function indicatorSynthetic(reference: ReferenceData): IndicatorIsSynthetic {
  return (key) => isDemoIndicatorSource(reference.indicator(key)?.source);
}

export function toSignalSummary(s: SignalRecord, synthetic: IndicatorIsSynthetic): Static<typeof SignalSummary> {
  return {
    id: s.id,
    type: s.type,
    family: s.family,
    municipality_id: s.municipality_id,
    title_pt: s.title_pt,
    title_en: s.title_en,
    summary_pt: s.summary_pt,
    stage: s.stage,
    status: s.status,
    value_tier: s.value_tier,
    confidence: s.confidence,
    deadline_date: s.deadline_date,
    event_date: s.event_date,
    amount_eur: s.amount_eur,
    location_text: s.location_text,
    actionability: s.actionability,
    first_seen_at: s.first_seen_at,
    last_seen_at: s.last_seen_at,
    updated_at: s.updated_at,
    synthetic: isSyntheticSignalKey(s.key, synthetic),
  };
}

/** A signal's detail; `contractId` is the contract it is about (./signal-contract.ts), null when none. */
export function toSignalDetail(
  s: SignalRecord,
  synthetic: IndicatorIsSynthetic,
  contractId: number | null,
): Static<typeof SignalDetail> {
  const texts = withTypeTexts(s);
  return {
    ...toSignalSummary(s, synthetic),
    contract_id: contractId,
    summary_en: s.summary_en,
    why_it_matters_pt: texts.why_it_matters_pt,
    why_it_matters_en: texts.why_it_matters_en,
    next_step_pt: texts.next_step_pt,
    evidence: texts.evidence.map((e) => ({
      source_type: e.source_type,
      source_url: e.source_url,
      source_title: e.source_title,
      source_date: e.source_date,
      excerpt_pt: e.excerpt_pt,
      confidence: e.confidence,
    })),
  };
}

export function toFamilyInfo(f: SignalFamily): Static<typeof SignalFamilyInfo> {
  return {
    key: f.key,
    label_pt: f.label_pt,
    label_en: f.label_en,
    description_pt: f.description_pt,
    description_en: f.description_en,
  };
}

export function toTypeInfo(t: SignalType): Static<typeof SignalTypeInfo> {
  return {
    key: t.key,
    family: t.family,
    label_pt: t.label_pt,
    label_en: t.label_en,
    description_pt: t.description_pt,
    description_en: t.description_en,
    ...(t.methodology && { methodology: toMethodology(t.methodology) }),
  };
}

function toMethodology(m: IntegrityType): Static<typeof IntegrityMethodology> {
  return {
    code: m.code,
    version: m.version,
    measures_pt: m.measures_pt,
    measures_en: m.measures_en,
    fields: [...m.fields],
    thresholds: m.thresholds.map((t) => ({ key: t.key, value: t.value, unit: t.unit, source: t.source })),
    legal_basis: m.legal_basis && {
      reference: m.legal_basis.reference,
      reference_pt: m.legal_basis.reference_pt,
      text_pt: m.legal_basis.text_pt,
      text_en: m.legal_basis.text_en,
    },
    caveat_en: m.caveat_en,
    caveat_pt: m.caveat_pt,
  };
}

export function toCaseSummary(c: CaseRecord, synthetic: IndicatorIsSynthetic): Static<typeof SignalCaseSummary> {
  return {
    id: c.id,
    type: c.type,
    family: c.family,
    municipality_id: c.municipality_id,
    title_pt: c.title_pt,
    summary_pt: c.summary_pt,
    current_stage: c.current_stage,
    status: c.status,
    value_tier: c.value_tier,
    confidence: c.confidence,
    source_count: c.source_count,
    deadline_date: c.deadline_date,
    amount_eur: c.amount_eur,
    first_seen_at: c.first_seen_at,
    last_seen_at: c.last_seen_at,
    updated_at: c.updated_at,
    synthetic: isSyntheticCaseKey(c.key, synthetic),
  };
}

export function toCaseDetail(c: CaseDetailRecord, synthetic: IndicatorIsSynthetic): Static<typeof SignalCaseDetail> {
  return {
    ...toCaseSummary(c, synthetic),
    previous_stage: c.previous_stage,
    location_text: c.location_text,
    event_date: c.event_date,
    events: c.events.map((e) => ({
      event_type: e.event_type,
      old_value: e.old_value,
      new_value: e.new_value,
      reason: e.reason,
      created_at: e.created_at,
    })),
    linked_signals: c.linked_signals.map((l) => ({
      signal_id: l.signal_id,
      relationship: l.relationship,
      title_pt: l.title_pt,
      confidence: l.confidence,
    })),
  };
}
