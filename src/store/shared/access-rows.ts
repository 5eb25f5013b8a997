/**
 * Plans, accounts and API keys as records, the same in every store; lists (domains, scopes) and flags are read
 * through the store's ColumnDecoding (JSON text and 0/1 in SQLite, arrays and booleans in PostgreSQL).
 */
import type { AccountRecord, ApiKeyRecord, PlanRecord } from '../records.js';
import { type ColumnDecoding, numberOrNull, type Row, textOrNull } from './row-values.js';

export function toPlan(row: Row, decode: ColumnDecoding): PlanRecord {
  return {
    code: String(row.code),
    name: String(row.name),
    api_access: decode.flag(row.api_access) === true,
    domains: decode.list(row.domains) as PlanRecord['domains'],
    raw_values: decode.flag(row.raw_values) === true,
    judge: decode.flag(row.judge) === true,
    requests_per_minute: numberOrNull(row.requests_per_minute),
    requests_per_month: numberOrNull(row.requests_per_month),
    history_years: numberOrNull(row.history_years),
    alerts_history_days: numberOrNull(row.alerts_history_days),
  };
}

export function toAccount(row: Row, decode: ColumnDecoding): AccountRecord {
  return {
    id: Number(row.id),
    name: String(row.name),
    plan_code: String(row.plan_code),
    beta: decode.flag(row.beta) === true,
    created_at: String(row.created_at),
  };
}

export function toKey(row: Row, decode: ColumnDecoding): ApiKeyRecord {
  return {
    id: Number(row.id),
    account_id: Number(row.account_id),
    lookup: String(row.lookup),
    hash: String(row.hash),
    label: textOrNull(row.label),
    scopes: decode.list(row.scopes) as ApiKeyRecord['scopes'],
    expires_at: textOrNull(row.expires_at),
    revoked_at: textOrNull(row.revoked_at),
    created_at: String(row.created_at),
  };
}
