/**
 * Alert templates, rules and matches as records, the same in every store: their JSON columns (params, source
 * types, municipality ids, the judge's verdict) are text in both; a rule's `enabled` is read through the store's
 * decoding (0/1 in SQLite, a boolean in PostgreSQL).
 */
import type { AlertMatchRecord, AlertRuleRecord, AlertTemplateRecord } from '../signal-records.js';
import { flag, int, intOrNull, json, jsonOrNull, numberOrNull, recordCodec, text, textOrNull } from './record-codec.js';

export const ALERT_TEMPLATE = recordCodec<AlertTemplateRecord>({
  id: int,
  key: text,
  name: text,
  description: text,
  matcher_type: text,
  params: json,
  source_types: json,
  target_scope: text,
});

export const ALERT_RULE = recordCodec<AlertRuleRecord>({
  id: int,
  account_id: int,
  name: text,
  matcher_type: text,
  params: json,
  source_types: json,
  municipality_ids: json,
  target_scope: text,
  district: textOrNull,
  template_id: intOrNull,
  enabled: flag,
  created_at: text,
  matched_seq: int,
});

/** A match read with its rule's name (`rule_name`). */
export const ALERT_MATCH = recordCodec<AlertMatchRecord>({
  id: int,
  rule_id: int,
  rule_name: textOrNull,
  account_id: int,
  item_key: text,
  source_type: text,
  municipality_id: intOrNull,
  score: numberOrNull,
  title: textOrNull,
  snippet: textOrNull,
  link: textOrNull,
  matched_at: text,
  case_id: intOrNull,
  judge: jsonOrNull,
  status: text,
  updated_at: text,
});
