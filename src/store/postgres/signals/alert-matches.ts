/**
 * Alert matches: recorded once per (rule, item) — the unique pair makes a second write of it a no-op — and listed
 * newest first within one account; sources as in the SQLite store (rule, municipalities, status, account).
 */
import type { KeysetPage } from '../../procurement-queries.js';
import { toAlertMatch } from '../../shared/alert-rows.js';
import type { AlertMatchFilter, InstantPosition } from '../../signal-queries.js';
import type { AlertMatchInput, AlertMatchRecord } from '../../signal-records.js';
import type { Params, Sql } from '../db.js';
import { type InstantQuery, readInstantIds, unique } from './instant-keyset.js';

/** Inside the caller's transaction: the matches (a pair already there is skipped) and the rules' positions. */
export async function recordAlertMatches(
  sql: Sql,
  matches: readonly AlertMatchInput[],
  matchedSeq: readonly { ruleId: number; seq: number }[],
): Promise<{ inserted: number; skipped: number }> {
  let inserted = 0;
  if (matches.length > 0) {
    const ruleIds = [...new Set(matches.map((m) => m.rule_id))];
    const accounts = new Map(
      (await sql('SELECT id, account_id FROM alert_rules WHERE id = ANY($1::integer[])', [ruleIds])).map((r) => [
        Number(r.id),
        Number(r.account_id),
      ]),
    );
    for (const id of ruleIds) if (!accounts.has(id)) throw new Error(`recordAlertMatches: no alert rule ${id}`);
    // One row per (rule, item): a pair met twice in the batch is written as first given.
    const seen = new Set<string>();
    const fresh = matches.filter((m) => {
      const key = `${m.rule_id}\u0000${m.item_key}`;
      return !seen.has(key) && seen.add(key);
    });
    const column = <K extends keyof AlertMatchInput>(k: K) => fresh.map((m) => m[k]);
    const rows = await sql(
      `INSERT INTO alert_matches (rule_id, account_id, item_key, source_type, municipality_id, score, title, snippet, link, matched_at, case_id, judge)
       SELECT * FROM unnest($1::integer[], $2::integer[], $3::text[], $4::text[], $5::integer[], $6::double precision[], $7::text[],
                            $8::text[], $9::text[], $10::text[], $11::integer[], $12::text[])
         AS m (rule_id, account_id, item_key, source_type, municipality_id, score, title, snippet, link, matched_at, case_id, judge)
       -- Pairs already recorded are left out before they are numbered, so that skipping never uses up ids.
       WHERE NOT EXISTS (SELECT 1 FROM alert_matches x WHERE x.rule_id = m.rule_id AND x.item_key = m.item_key)
       ON CONFLICT (rule_id, item_key) DO NOTHING RETURNING id`,
      [
        column('rule_id'),
        fresh.map((m) => accounts.get(m.rule_id)),
        column('item_key'),
        column('source_type'),
        column('municipality_id'),
        column('score'),
        column('title'),
        column('snippet'),
        column('link'),
        column('matched_at'),
        column('case_id'),
        fresh.map((m) => (m.judge === null ? null : JSON.stringify(m.judge))),
      ],
    );
    inserted = rows.length;
  }
  for (const { ruleId, seq } of matchedSeq) await sql('UPDATE alert_rules SET matched_seq = $1 WHERE id = $2', [seq, ruleId]);
  return { inserted, skipped: matches.length - inserted };
}

export async function listAlertMatches(sql: Sql, filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): Promise<AlertMatchRecord[]> {
  return loadAlertMatches(sql, await readInstantIds(sql, alertMatchQuery(filter, page)));
}

export function alertMatchQuery(filter: AlertMatchFilter, page: KeysetPage<InstantPosition>): InstantQuery {
  const ofAccount = (p: Params) => `m.account_id = ${p.add(filter.accountId)}`;
  const municipalities = filter.municipalityIds && filter.municipalityIds.length > 0 ? unique(filter.municipalityIds) : undefined;
  let sources: InstantQuery['sources'];
  if (filter.ruleId !== undefined) sources = [(p) => [`m.rule_id = ${p.add(filter.ruleId)}`, ofAccount(p)]];
  else if (municipalities) sources = municipalities.map((id) => (p: Params) => [ofAccount(p), `m.municipality_id = ${p.add(id)}`]);
  else if (filter.status !== undefined) sources = [(p) => [ofAccount(p), `m.status = ${p.add(filter.status)}`]];
  else sources = [(p) => [ofAccount(p)]];
  const residual = (p: Params) => {
    const conditions: string[] = [];
    if (municipalities && filter.ruleId !== undefined) conditions.push(`m.municipality_id = ANY(${p.add(municipalities)}::integer[])`);
    if (filter.status !== undefined && (filter.ruleId !== undefined || municipalities))
      conditions.push(`m.status = ${p.add(filter.status)}`);
    return conditions;
  };
  return { table: 'alert_matches', alias: 'm', column: 'matched_at', sources, residual, since: filter.since, page };
}

const MATCH_SELECT = 'SELECT m.*, r.name AS rule_name FROM alert_matches m JOIN alert_rules r ON r.id = m.rule_id';

async function loadAlertMatches(sql: Sql, ids: readonly number[]): Promise<AlertMatchRecord[]> {
  if (ids.length === 0) return [];
  const rows = await sql(`${MATCH_SELECT} WHERE m.id = ANY($1::integer[])`, [ids]);
  const byId = new Map(rows.map((row) => [Number(row.id), toAlertMatch(row)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

export async function getAlertMatch(sql: Sql, id: number): Promise<AlertMatchRecord | undefined> {
  const [row] = await sql(`${MATCH_SELECT} WHERE m.id = $1`, [id]);
  return row && toAlertMatch(row);
}

export async function dismissAlertMatch(sql: Sql, id: number): Promise<boolean> {
  return (
    (await sql("UPDATE alert_matches SET status = 'dismissed' WHERE id = $1 AND status <> 'dismissed' RETURNING id", [id])).length === 1
  );
}
