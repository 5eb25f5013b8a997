/** Store records → the resources of schemas.ts, field for field (the one place their shapes meet). */
import type { Static } from '@sinclair/typebox';
import type { ReferenceData } from '../../core/reference.js';
import { isDemoIndicatorSource, isDemoProcurementSource, isSyntheticSignalKey } from '../../lib/provenance.js';
import type { AlertMatchRecord, AlertRuleRecord } from '../../store/signal-records.js';
import type { Store } from '../../store/store.js';
import type { AlertMatchSummary, AlertRuleSummary } from './schemas.js';

export function toAlertRule(r: AlertRuleRecord): Static<typeof AlertRuleSummary> {
  return {
    id: r.id,
    name: r.name,
    matcher_type: r.matcher_type,
    source_types: r.source_types,
    municipality_ids: r.municipality_ids,
    target_scope: r.target_scope,
    enabled: r.enabled,
    template_id: r.template_id,
    created_at: r.created_at,
  };
}

/** `withJudge`: the caller's plan includes the judge; even then `judge` is absent until a verdict exists. */
export function toAlertMatch(
  m: AlertMatchRecord,
  withJudge: boolean,
  synthetic: boolean,
): Static<typeof AlertMatchSummary> {
  return {
    id: m.id,
    rule_id: m.rule_id,
    rule_name: m.rule_name,
    source_type: m.source_type,
    municipality_id: m.municipality_id,
    score: m.score,
    title: m.title,
    snippet: m.snippet,
    link: m.link,
    status: m.status,
    matched_at: m.matched_at,
    case_id: m.case_id,
    updated_at: m.updated_at,
    synthetic,
    ...(withJudge && m.judge !== null
      ? {
          judge: {
            is_direct_action: m.judge.is_direct_action,
            action_type: m.judge.action_type,
            why_pt: m.judge.why_pt,
            why_en: m.judge.why_en,
            confidence: m.judge.confidence,
          },
        }
      : {}),
  };
}

/**
 * Whether each match is about demo data: its item (`<source_type>:<id>`) read back — a signal by its key, a
 * procurement record by its source. An item no longer stored counts as real (nothing generated is left of it).
 */
export async function matchesSynthetic(
  store: Pick<Store, 'getSignals' | 'getContracts' | 'getAnnouncements' | 'getAmendments'>,
  reference: ReferenceData,
  matches: readonly Pick<AlertMatchRecord, 'item_key'>[],
): Promise<boolean[]> {
  // Only keys that name a stored row by its integer id (a match of an outside item names none): never NaN to SQL.
  const ids = (type: string) =>
    matches
      .filter((m) => m.item_key.startsWith(`${type}:`))
      .map((m) => Number(m.item_key.split(':')[1]))
      .filter((id) => Number.isSafeInteger(id));
  const indicatorSynthetic = (key: string) => isDemoIndicatorSource(reference.indicator(key)?.source);
  const synthetic = new Set<string>();
  for (const s of await store.getSignals(ids('signal')))
    if (isSyntheticSignalKey(s.key, indicatorSynthetic)) synthetic.add(`signal:${s.id}`);
  const records = [
    ['procurement_contract', await store.getContracts(ids('procurement_contract'))],
    ['procurement_announcement', await store.getAnnouncements(ids('procurement_announcement'))],
    ['procurement_amendment', await store.getAmendments(ids('procurement_amendment'))],
  ] as const;
  for (const [type, rows] of records)
    for (const r of rows) if (isDemoProcurementSource(r.source)) synthetic.add(`${type}:${r.id}`);
  return matches.map((m) => synthetic.has(m.item_key));
}
