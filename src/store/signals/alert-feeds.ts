/** The rules' feed tokens (docs/alerts.md, "Feeds"), by their hash: set (replacing), revoked, looked up. */
import type { SqlPort } from '../sql/port.js';

export async function setAlertFeedToken(sql: SqlPort, ruleId: number, tokenHash: string, now: string): Promise<void> {
  await sql.run(
    `INSERT INTO alert_feeds (rule_id, token_hash, created_at) VALUES ($1, $2, $3)
     ON CONFLICT (rule_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
    [ruleId, tokenHash, now],
  );
}

export async function revokeAlertFeed(sql: SqlPort, ruleId: number): Promise<boolean> {
  return (await sql.run('DELETE FROM alert_feeds WHERE rule_id = $1', [ruleId])) === 1;
}

export async function findAlertFeedRule(sql: SqlPort, tokenHash: string): Promise<number | undefined> {
  const [row] = await sql.query('SELECT rule_id FROM alert_feeds WHERE token_hash = $1', [tokenHash]);
  return row === undefined ? undefined : Number(row.rule_id);
}
