/** Store records → the resources of schemas.ts, field for field (the one place their shapes meet). */
import type { Static } from '@sinclair/typebox';
import type { AlertMatchRecord, AlertRuleRecord } from '../../store/signal-records.js';
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
export function toAlertMatch(m: AlertMatchRecord, withJudge: boolean): Static<typeof AlertMatchSummary> {
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
