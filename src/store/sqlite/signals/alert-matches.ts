/**
 * Alert matches: recorded once per (rule, item) — the unique pair makes a second write of it a no-op, whoever
 * writes it — and listed newest first (matched_at descending, then id descending) within one account. The
 * source a page reads (instant-keyset.ts):
 *
 *   rule           → alert_matches_by_rule
 *   municipalities → alert_matches_by_municipality, one range per municipality, merged
 *   status         → alert_matches_by_status
 *   otherwise      → alert_matches_by_account
 */
import type { KeysetPage } from '../../procurement-queries.js';
import { toAlertMatch } from '../../shared/alert-rows.js';
import type { AlertMatchFilter, InstantPosition } from '../../signal-queries.js';
import type { AlertMatchInput, AlertMatchRecord } from '../../signal-records.js';
import type { OrderedSource } from '../procurement/keyset.js';
import { jsonList, type Params, type Row, type Sql } from '../procurement/sql.js';
import { type InstantQuery, indexSource, readInstantIds, unique } from './instant-keyset.js';

const COLUMNS = [
  'rule_id',
  'account_id',
  'item_key',
  'source_type',
  'municipality_id',
  'score',
  'title',
  'snippet',
  'link',
  'matched_at',
  'case_id',
  'judge',
] as const;
const INSERT = `INSERT INTO alert_matches (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (rule_id, item_key) DO NOTHING`;

/** Inside the caller's transaction: the matches (a pair already there is skipped) and the rules' positions. */
export function recordAlertMatches(
  sql: Sql,
  matches: readonly AlertMatchInput[],
  matchedSeq: readonly { ruleId: number; seq: number }[],
): { inserted: number; skipped: number } {
  const accounts = new Map<number, number>();
  const accountOf = (ruleId: number): number => {
    let account = accounts.get(ruleId);
    if (account === undefined) {
      const row = sql('SELECT account_id FROM alert_rules WHERE id = ?').get(ruleId) as Row | undefined;
      if (!row) throw new Error(`recordAlertMatches: no alert rule ${ruleId}`);
      account = Number(row.account_id);
      accounts.set(ruleId, account);
    }
    return account;
  };
  let inserted = 0;
  for (const m of matches) {
    inserted += sql(INSERT).run(
      m.rule_id,
      accountOf(m.rule_id),
      m.item_key,
      m.source_type,
      m.municipality_id,
      m.score,
      m.title,
      m.snippet,
      m.link,
      m.matched_at,
      m.case_id,
      m.judge === null ? null : JSON.stringify(m.judge),
    ).changes;
  }
  for (const { ruleId, seq } of matchedSeq) sql('UPDATE alert_rules SET matched_seq = ? WHERE id = ?').run(seq, ruleId);
  return { inserted, skipped: matches.length - inserted };
}

export function listAlertMatches(sql: Sql, filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): AlertMatchRecord[] {
  const { sources, query } = alertMatchQuery(filter, page);
  return loadAlertMatches(sql, readInstantIds(sql, sources, query));
}

/** The sources and the query of a page; exported for the tests that EXPLAIN them. */
export function alertMatchQuery(
  filter: AlertMatchFilter,
  page: KeysetPage<InstantPosition>,
): { sources: OrderedSource[]; query: InstantQuery } {
  const source = (index: string, where: string[], params: Params = {}) =>
    indexSource('alert_matches', 'm', index, 'matched_at', where, params);
  const ofAccount = 'm.account_id = @accountId';
  const residual: string[] = [];
  const params: Params = { accountId: filter.accountId };
  const municipalities = filter.municipalityIds && filter.municipalityIds.length > 0 ? unique(filter.municipalityIds) : undefined;
  let sources: OrderedSource[];
  if (filter.ruleId !== undefined) {
    sources = [source('alert_matches_by_rule', ['m.rule_id = @ruleId'], { ruleId: filter.ruleId })];
    residual.push(ofAccount); // a rule of another account yields nothing
  } else if (municipalities) {
    sources = municipalities.map((id, i) =>
      source('alert_matches_by_municipality', [ofAccount, `m.municipality_id = @m${i}`], { [`m${i}`]: id }),
    );
  } else if (filter.status !== undefined) {
    sources = [source('alert_matches_by_status', [ofAccount, 'm.status = @status'], { status: filter.status })];
  } else {
    sources = [source('alert_matches_by_account', [ofAccount])];
  }
  if (municipalities && filter.ruleId !== undefined) {
    residual.push('m.municipality_id IN (SELECT value FROM json_each(@municipalities))');
    params.municipalities = jsonList(municipalities);
  }
  if (filter.status !== undefined && (filter.ruleId !== undefined || municipalities)) {
    residual.push('m.status = @status');
    params.status = filter.status;
  }
  return { sources, query: { alias: 'm', column: 'matched_at', residual, params, since: filter.since, page } };
}

const MATCH_SELECT = 'SELECT m.*, r.name AS rule_name FROM alert_matches m JOIN alert_rules r ON r.id = m.rule_id';

function loadAlertMatches(sql: Sql, ids: readonly number[]): AlertMatchRecord[] {
  if (ids.length === 0) return [];
  const rows = sql(`${MATCH_SELECT} WHERE m.id IN (SELECT value FROM json_each(@ids))`).all({ ids: jsonList(ids) }) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), toAlertMatch(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export function getAlertMatch(sql: Sql, id: number): AlertMatchRecord | undefined {
  const row = sql(`${MATCH_SELECT} WHERE m.id = ?`).get(id) as Row | undefined;
  return row && toAlertMatch(row);
}

export function dismissAlertMatch(sql: Sql, id: number): boolean {
  return sql("UPDATE alert_matches SET status = 'dismissed' WHERE id = ? AND status <> 'dismissed'").run(id).changes === 1;
}
