/**
 * Alert templates, rules and matches as records, the same in every store: their JSON columns (params, source
 * types, municipality ids, the judge's verdict) are text in both.
 */
import type { AlertMatchRecord, AlertRuleRecord, AlertTemplateRecord } from '../signal-records.js';
import { type ColumnDecoding, numberOrNull, type Row, textOrNull } from './row-values.js';

export function toAlertTemplate(row: Row): AlertTemplateRecord {
  return {
    id: Number(row.id),
    key: String(row.key),
    name: String(row.name),
    description: String(row.description),
    matcher_type: row.matcher_type as AlertTemplateRecord['matcher_type'],
    params: JSON.parse(String(row.params)),
    source_types: JSON.parse(String(row.source_types)),
    target_scope: row.target_scope as AlertTemplateRecord['target_scope'],
  };
}

/** `enabled` is 0/1 in SQLite and a boolean in PostgreSQL: the store's decoding reads it. */
export function toAlertRule(row: Row, decode: ColumnDecoding): AlertRuleRecord {
  return {
    id: Number(row.id),
    account_id: Number(row.account_id),
    name: String(row.name),
    matcher_type: row.matcher_type as AlertRuleRecord['matcher_type'],
    params: JSON.parse(String(row.params)),
    source_types: JSON.parse(String(row.source_types)),
    municipality_ids: JSON.parse(String(row.municipality_ids)),
    target_scope: row.target_scope as AlertRuleRecord['target_scope'],
    district: textOrNull(row.district),
    template_id: numberOrNull(row.template_id),
    enabled: decode.flag(row.enabled) === true,
    created_at: String(row.created_at),
    matched_seq: Number(row.matched_seq),
  };
}

export function toAlertMatch(row: Row): AlertMatchRecord {
  return {
    id: Number(row.id),
    rule_id: Number(row.rule_id),
    rule_name: textOrNull(row.rule_name),
    account_id: Number(row.account_id),
    item_key: String(row.item_key),
    source_type: row.source_type as AlertMatchRecord['source_type'],
    municipality_id: numberOrNull(row.municipality_id),
    score: numberOrNull(row.score),
    title: textOrNull(row.title),
    snippet: textOrNull(row.snippet),
    link: textOrNull(row.link),
    matched_at: String(row.matched_at),
    case_id: numberOrNull(row.case_id),
    judge: row.judge === null ? null : JSON.parse(String(row.judge)),
    status: row.status as AlertMatchRecord['status'],
  };
}
