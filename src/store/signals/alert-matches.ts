/**
 * Alert matches: recorded once per (rule, item) — the unique pair makes a second write of it a no-op, whoever
 * writes it — and listed newest first (matched_at descending, then id descending) within one account. The
 * source a page reads (instant-keyset.ts):
 *
 *   rule           → alert_matches_by_rule
 *   municipalities → alert_matches_by_municipality, one range per municipality, merged
 *   status         → alert_matches_by_status
 *   otherwise      → alert_matches_by_account
 *
 * With `updatedSince`, the change order instead (../changes/changed-since.ts): the account's range of
 * alert_matches_by_update, every other filter checked on its rows.
 */

import type { MatchStatus } from '../../lib/vocabulary.js';
import { changeStamp } from '../changes/change-stamp.js';
import { type ChangedQuery, readChangedIds } from '../changes/changed-since.js';
import type { KeysetPage } from '../procurement-queries.js';
import { ALERT_MATCH } from '../shared/alert-rows.js';
import { inIdOrder } from '../shared/row-values.js';
import type { AlertMatchFilter, InstantPosition } from '../signal-queries.js';
import type { AlertMatchInput, AlertMatchRecord } from '../signal-records.js';
import type { Params } from '../sql/params.js';
import type { Dialect, SqlPort } from '../sql/port.js';
import { enqueueWebhookEvents } from '../webhooks/outbox.js';
import { type InstantQuery, readInstantIds, unique } from './instant-keyset.js';

/** What recording a match writes: the store numbers it and stamps it, and it starts as new. */
const WRITTEN = ALERT_MATCH.except('id', 'rule_name', 'status', 'updated_at');
const COLUMNS = WRITTEN.join(', ');

/** Inside the caller's transaction: the matches (a pair already there is skipped) and the rules' positions. */
export async function recordAlertMatches(
  tx: SqlPort,
  matches: readonly AlertMatchInput[],
  matchedSeq: readonly { ruleId: number; seq: number }[],
): Promise<{ inserted: number; skipped: number }> {
  let inserted = 0;
  if (matches.length > 0) {
    const ruleIds = [...new Set(matches.map((m) => m.rule_id))];
    const accounts = new Map(
      (await tx.query(`SELECT id, account_id FROM alert_rules WHERE ${tx.dialect.inList('id', '$1')}`, [ruleIds])).map(
        (r) => [Number(r.id), Number(r.account_id)],
      ),
    );
    for (const id of ruleIds) if (!accounts.has(id)) throw new Error(`recordAlertMatches: no alert rule ${id}`);
    // One row per (rule, item): a pair met twice in the batch is written as first given.
    const seen = new Set<string>();
    const fresh = matches.filter((m) => {
      const key = `${m.rule_id}\u0000${m.item_key}`;
      return !seen.has(key) && seen.add(key);
    });
    const rows = fresh.map((m) => ALERT_MATCH.values({ ...m, account_id: accounts.get(m.rule_id) }, WRITTEN));
    const written = await tx.query(
      `INSERT INTO alert_matches (${COLUMNS}, updated_at)
       SELECT ${COLUMNS}, $2 FROM ${tx.dialect.rows('$1', ALERT_MATCH.batch(WRITTEN))} AS m
       -- Pairs already recorded are left out before they are numbered, so that skipping never uses up ids.
       WHERE NOT EXISTS (SELECT 1 FROM alert_matches x WHERE x.rule_id = m.rule_id AND x.item_key = m.item_key)
       ORDER BY m.ord
       ON CONFLICT (rule_id, item_key) DO NOTHING
       RETURNING id, account_id, matched_at`,
      [JSON.stringify(rows), await changeStamp(tx)],
    );
    inserted = written.length;
    // Their webhook deliveries, in this transaction: a recorded match always has them (docs/webhooks.md).
    await enqueueWebhookEvents(
      tx,
      written
        .map((r) => ({ id: Number(r.id), account: Number(r.account_id), at: String(r.matched_at) }))
        .sort((a, b) => a.id - b.id)
        .map((r) => ({
          type: 'alert_match.created' as const,
          resource_id: r.id,
          account_id: r.account,
          family: null,
          subtype: null,
          occurred_at: r.at,
        })),
    );
  }
  for (const { ruleId, seq } of matchedSeq)
    await tx.run('UPDATE alert_rules SET matched_seq = $1 WHERE id = $2', [seq, ruleId]);
  return { inserted, skipped: matches.length - inserted };
}

export async function listAlertMatches(
  port: SqlPort,
  filter: AlertMatchFilter,
  page: KeysetPage<InstantPosition>,
): Promise<AlertMatchRecord[]> {
  const ids =
    filter.updatedSince === undefined
      ? await readInstantIds(port, alertMatchQuery(port.dialect, filter, page))
      : await readChangedIds(port, changedAlertMatchQuery(port.dialect, filter, filter.updatedSince, page));
  return loadAlertMatches(port, ids);
}

/** A page in change order. */
export function changedAlertMatchQuery(
  dialect: Dialect,
  filter: AlertMatchFilter,
  since: string,
  page: KeysetPage<InstantPosition>,
): ChangedQuery {
  const where = (p: Params) => {
    const conditions = [`m.account_id = ${p.add(filter.accountId)}`, `m.matched_at >= ${p.add(filter.since)}`];
    if (filter.ruleId !== undefined) conditions.push(`m.rule_id = ${p.add(filter.ruleId)}`);
    if (filter.municipalityIds && filter.municipalityIds.length > 0)
      conditions.push(dialect.inList('m.municipality_id', p.add(unique(filter.municipalityIds))));
    if (filter.status !== undefined) conditions.push(`m.status = ${p.add(filter.status)}`);
    return conditions;
  };
  return { table: 'alert_matches', alias: 'm', index: 'alert_matches_by_update', where, since, page };
}

/** The query of a page; exported for the tests that EXPLAIN it. */
export function alertMatchQuery(
  dialect: Dialect,
  filter: AlertMatchFilter,
  page: KeysetPage<InstantPosition>,
): InstantQuery {
  const ofAccount = (p: Params) => `m.account_id = ${p.add(filter.accountId)}`;
  const municipalities =
    filter.municipalityIds && filter.municipalityIds.length > 0 ? unique(filter.municipalityIds) : undefined;
  let sources: InstantQuery['sources'];
  if (filter.ruleId !== undefined) {
    // The account too: a rule of another account yields nothing.
    sources = [{ index: 'alert_matches_by_rule', where: (p) => [`m.rule_id = ${p.add(filter.ruleId)}`, ofAccount(p)] }];
  } else if (municipalities) {
    sources = municipalities.map((id) => ({
      index: 'alert_matches_by_municipality',
      where: (p: Params) => [ofAccount(p), `m.municipality_id = ${p.add(id)}`],
    }));
  } else if (filter.status !== undefined) {
    sources = [
      { index: 'alert_matches_by_status', where: (p) => [ofAccount(p), `m.status = ${p.add(filter.status)}`] },
    ];
  } else {
    sources = [{ index: 'alert_matches_by_account', where: (p) => [ofAccount(p)] }];
  }
  const residual = (p: Params) => {
    const conditions: string[] = [];
    if (municipalities && filter.ruleId !== undefined)
      conditions.push(dialect.inList('m.municipality_id', p.add(municipalities)));
    if (filter.status !== undefined && (filter.ruleId !== undefined || municipalities))
      conditions.push(`m.status = ${p.add(filter.status)}`);
    return conditions;
  };
  return { table: 'alert_matches', alias: 'm', column: 'matched_at', sources, residual, since: filter.since, page };
}

const MATCH_SELECT = 'SELECT m.*, r.name AS rule_name FROM alert_matches m JOIN alert_rules r ON r.id = m.rule_id';

async function loadAlertMatches(port: SqlPort, ids: readonly number[]): Promise<AlertMatchRecord[]> {
  if (ids.length === 0) return [];
  const rows = await port.query(`${MATCH_SELECT} WHERE ${port.dialect.inList('m.id', '$1')}`, [ids]);
  return inIdOrder(ids, rows, ALERT_MATCH.reader(port));
}

export async function getAlertMatch(port: SqlPort, id: number): Promise<AlertMatchRecord | undefined> {
  return ALERT_MATCH.first(port, `${MATCH_SELECT} WHERE m.id = $1`, [id]);
}

export async function dismissAlertMatch(tx: SqlPort, id: number): Promise<boolean> {
  return setMatchStatus(tx, id, 'dismissed');
}

/** A dismissed match back to `matched`; false when there is no such match or it was not dismissed. */
export async function restoreAlertMatch(tx: SqlPort, id: number): Promise<boolean> {
  return setMatchStatus(tx, id, 'matched');
}

/** A change of status stamps the match (../changes/change-stamp.ts). */
async function setMatchStatus(tx: SqlPort, id: number, status: MatchStatus): Promise<boolean> {
  const stamp = await changeStamp(tx);
  const sql = 'UPDATE alert_matches SET status = $1, updated_at = $3 WHERE id = $2 AND status <> $1';
  return (await tx.run(sql, [status, id, stamp])) === 1;
}
