/**
 * Plans, accounts and API keys as records, the same in every store; lists (domains, scopes) and flags are read
 * through the store's ColumnDecoding (JSON text and 0/1 in SQLite, arrays and booleans in PostgreSQL).
 */
import type { AccountRecord, ApiKeyRecord, PlanRecord } from '../records.js';
import { flag, int, intOrNull, list, recordCodec, text, textOrNull } from './record-codec.js';

export const PLAN = recordCodec<PlanRecord>({
  code: text,
  name: text,
  api_access: flag,
  domains: list,
  raw_values: flag,
  judge: flag,
  requests_per_minute: intOrNull,
  requests_per_month: intOrNull,
  history_years: intOrNull,
  alerts_history_days: intOrNull,
});

export const ACCOUNT = recordCodec<AccountRecord>({
  id: int,
  name: text,
  plan_code: text,
  beta: flag,
  created_at: text,
});

export const API_KEY = recordCodec<ApiKeyRecord>({
  id: int,
  account_id: int,
  lookup: text,
  hash: text,
  label: textOrNull,
  scopes: list,
  expires_at: textOrNull,
  revoked_at: textOrNull,
  created_at: text,
});
