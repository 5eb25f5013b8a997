/**
 * How many matches each of an account's rules recorded since an instant (the caller's alert-history window), and
 * the newest one's instant (Store.alertMatchCounts; the console's rule list, docs/console.md): whether a rule is
 * catching anything, without paging through its matches. One range of alert_matches_by_account.
 */
import type { SqlPort } from '../sql/port.js';

export interface RuleMatchCount {
  readonly rule_id: number;
  readonly count: number;
  /** RFC 3339 UTC: the newest match's matched_at. */
  readonly latest: string;
}

export async function alertMatchCounts(port: SqlPort, accountId: number, since: string): Promise<RuleMatchCount[]> {
  const rows = await port.query(
    `SELECT rule_id, count(*) AS n, max(matched_at) AS latest
       FROM alert_matches
      WHERE account_id = $1 AND matched_at >= $2
      GROUP BY rule_id
      ORDER BY rule_id`,
    [accountId, since],
  );
  return rows.map((r) => ({ rule_id: Number(r.rule_id), count: Number(r.n), latest: String(r.latest) }));
}
