/**
 * A rule's Atom feed at a secret URL (docs/alerts.md, "Feeds"), for feed readers and newsrooms. The token is shown
 * once, when issued, and kept only as its SHA-256: issuing again gives a new URL and the old one stops working;
 * revoking stops it without a new one. The console and `munidata alerts feed RULE_ID [--revoke]` both call these.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AdminError } from '../lib/admin-error.js';
import type { Store } from '../store/store.js';

/** The path under the service's base URL; the token follows it. */
export const ALERT_FEED_PATH = '/feeds/alerts/';
/** A token's form: the prefix says what it opens (in a log or a leaked list), 43 characters of 256 random bits. */
const TOKEN_PREFIX = 'mdfeed_';
export const FEED_TOKEN_PATTERN = /^mdfeed_[A-Za-z0-9_-]{43}$/;

export function feedTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues a new feed URL for the rule, replacing any it had; the URL holds the token, shown only now. */
export async function issueRuleFeed(
  store: Store,
  ruleId: number,
  baseUrl: string,
  now: Date,
): Promise<{ rule_id: number; url: string }> {
  if (!(await store.getAlertRule(ruleId))) throw new AdminError(`No alert rule with id ${ruleId}.`);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  await store.setAlertFeedToken(ruleId, feedTokenHash(token), now.toISOString());
  return { rule_id: ruleId, url: `${baseUrl}${ALERT_FEED_PATH}${token}` };
}

/** Stops the rule's feed URL; false when it had none. */
export async function revokeRuleFeed(store: Store, ruleId: number): Promise<boolean> {
  if (!(await store.getAlertRule(ruleId))) throw new AdminError(`No alert rule with id ${ruleId}.`);
  return store.revokeAlertFeed(ruleId);
}
