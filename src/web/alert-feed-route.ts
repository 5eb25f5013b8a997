/**
 * `GET /feeds/alerts/{token}`: a rule's matches as an Atom feed (docs/alerts.md, "Feeds"), at the secret URL issued
 * by the console or `munidata alerts feed RULE_ID`. No key: the token is the credential, so the answer is private
 * and kept out of indexes. The newest 50 matches not dismissed, within the account's plan's alert-history window;
 * a token unknown, revoked or replaced — or a plan that no longer includes alerts — is one plain 404.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { FEED_TOKEN_PATTERN, feedTokenHash } from '../admin/alert-feeds.js';
import type { AlertSourceType } from '../lib/vocabulary.js';
import type { AlertMatchRecord } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { type AtomEntry, renderAtom } from './atom.js';
import { type DetailView, detailUrl } from './explore/detail-paths.js';

const ENTRIES = 50;
const DAY_MS = 86_400_000;

export interface AlertFeedDeps {
  readonly store: Store;
  readonly baseUrl: string;
  readonly clock: () => number;
}

export function registerAlertFeedRoute(app: FastifyInstance, deps: AlertFeedDeps): void {
  app.get<{ Params: { token: string } }>('/feeds/alerts/:token', async (request, reply) => {
    const { token } = request.params;
    const feed = FEED_TOKEN_PATTERN.test(token) ? await ruleFeed(deps, token) : undefined;
    if (!feed) {
      return plain(reply)
        .code(404)
        .type('text/plain; charset=utf-8')
        .send('No feed at this address: it was revoked, replaced by a newer one, or never issued.\n');
    }
    return plain(reply).type('application/atom+xml; charset=utf-8').send(feed);
  });
}

async function ruleFeed(deps: AlertFeedDeps, token: string): Promise<string | undefined> {
  const { store, baseUrl } = deps;
  const ruleId = await store.findAlertFeedRule(feedTokenHash(token));
  const rule = ruleId === undefined ? undefined : await store.getAlertRule(ruleId);
  const account = rule && (await store.getAccount(rule.account_id));
  const plan = account && (await store.getPlan(account.plan_code));
  if (!rule || !plan?.domains.includes('alerts')) return undefined;
  const since =
    plan.alerts_history_days === null
      ? '1970-01-01T00:00:00Z'
      : `${new Date(deps.clock() - plan.alerts_history_days * DAY_MS).toISOString().slice(0, 19)}Z`;
  const matches = await store.listAlertMatches(
    { accountId: rule.account_id, ruleId: rule.id, status: 'matched', since },
    { limit: ENTRIES },
  );
  return renderAtom({
    id: `urn:munidata:alert-rule:${rule.id}`,
    title: `munidata alerts: ${rule.name}`,
    subtitle: `The newest matches of alert rule ${rule.id} (${rule.matcher_type}), not dismissed.`,
    self: `${baseUrl}/feeds/alerts/${token}`,
    alternate: `${baseUrl}/console`,
    updated: matches[0]?.matched_at ?? rule.created_at,
    author: 'munidata',
    entries: matches.map((match) => entryOf(match, baseUrl)),
  });
}

function entryOf(match: AlertMatchRecord, baseUrl: string): AtomEntry {
  return {
    id: `urn:munidata:alert-match:${match.id}`,
    title: match.title ?? `${match.source_type} ${match.item_key}`,
    updated: match.matched_at,
    link: entryLink(match, baseUrl),
    summary: match.snippet,
    category: match.source_type,
  };
}

/** The explorer's view of each kind of item that has one; an amendment or a notice has none of its own. */
const EXPLORER_VIEW: Partial<Record<AlertSourceType, DetailView>> = {
  signal: 'signal',
  procurement_contract: 'contract',
};

/**
 * Where a reader of the entry goes: the item's source where it has one, else the explorer's view of the item, else
 * the console's list of the rule's matches. Every entry has one: RFC 4287 (4.1.1) requires an alternate link on an
 * entry without content, and an indicator's signal, generated data, names no source.
 */
function entryLink(match: AlertMatchRecord, baseUrl: string): string {
  if (match.link) return match.link;
  const view = EXPLORER_VIEW[match.source_type];
  const id = match.item_key.slice(match.item_key.indexOf(':') + 1);
  return view ? detailUrl(baseUrl, view, id) : `${baseUrl}/console/alerts`;
}

/** Private to the holder of the URL, never indexed, and the token never sent on as a referrer. */
function plain(reply: FastifyReply): FastifyReply {
  return reply
    .header('cache-control', 'private, max-age=60')
    .header('x-robots-tag', 'noindex')
    .header('referrer-policy', 'no-referrer');
}
