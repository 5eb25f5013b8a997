/**
 * What a rule would have matched, before it is saved (the console's preview, docs/alerts.md "Preview"): the
 * matcher's own items (`loadItems`, which leaves out the signals that no longer stand) and test (`matchRule`) over
 * the journal's item entries (not observations), newest first, inside the alert window, recording nothing. It reads
 * the latest PREVIEW_RECENT of them in any case (every match among them counted), then walks older ones only while it
 * has fewer matches than it shows, up to PREVIEW_SIGNALS in all: a rule for a rare type or a small municipality
 * still finds its older items, and the walk is bounded. It gives what it read (entries, items tested and their dates,
 * items too old, the window, why it stopped) and, when nothing matched, the journal's items older than the window,
 * for the page to say why.
 */

import { ruleJudge } from '../alerts/judge.js';
import { loadItems, Places } from '../alerts/load-items.js';
import { isTooOld, type MatcherStore, matchRule } from '../alerts/run-matching.js';
import { alertWindowDays, alertWindowStart } from '../alerts/window.js';
import type { AlertMatchInput, AlertRuleEdit, ChangeKind } from '../store/signal-records.js';
import type { JournalStore } from '../store/store.js';

/** Item entries the preview always reads, newest first: every match among them is counted (the page's "N match"). */
export const PREVIEW_RECENT = 10_000;
/**
 * The most item entries (signals, contracts, notices, amendments) the preview examines in all, walking back while it
 * has fewer than a page of matches. A bound because a person waits for the page: each entry is a record read and a
 * rule test, and 100 000 of them (ten times the recent reach; the demo's 20 000 signals with their records five
 * times over) stay within a few seconds on either store. A saved rule is matched by the matcher over the whole
 * window anyway; the preview says when it stopped here.
 */
export const PREVIEW_SIGNALS = 100_000;
/** The journal's kinds that are items: an observation is not (indicator rules match the signals made of them). */
const ITEM_KINDS: readonly ChangeKind[] = ['signal', 'contract', 'announcement', 'amendment'];
const BATCH = 2_000;

export interface RulePreview {
  /** Newest first, at most `limit`. */
  matches: AlertMatchInput[];
  /** How many of the entries read it matched (more than `matches` holds when over the limit). */
  total: number;
  /** Item entries read from the journal (observations are not read). */
  entries: number;
  /**
   * Why the walk stopped: `all` (it read every item entry), `enough` (past PREVIEW_RECENT, it had a page of
   * matches), `bound` (it reached `bound` with fewer than a page of matches: older entries were not read).
   */
  stopped: 'all' | 'enough' | 'bound';
  /** Whether the journal holds item entries older than those read (`stopped` is not `all`). */
  olderUnread: boolean;
  /** How many matches the page shows at most (the walk past PREVIEW_RECENT looks for that many). */
  limit: number;
  /** The most item entries it reads (PREVIEW_SIGNALS unless asked otherwise), for the page to say so. */
  bound: number;
  /** Entries read that were tested against the rule (items inside the window), and their first and last dates. */
  tested: { count: number; first: string | null; last: string | null };
  /** Entries read that were skipped as older than the alert window. */
  tooOld: number;
  /** The alert window: how many days back alerts look, and its first day; null when nothing is too old. */
  window: { days: number; start: string } | null;
  /**
   * When nothing matched: the journal's items older than the window (all of them, read or not), which no rule ever
   * matches; undefined when something matched or nothing is too old.
   */
  outside?: { count: number; first: string | null; last: string | null };
}

export async function previewRule(
  store: Omit<MatcherStore, 'recordAlertMatches' | 'listAlertRules' | 'findCaseId'> &
    Pick<JournalStore, 'changesDatedBefore' | 'readChangesBefore'>,
  rule: AlertRuleEdit & { account_id: number },
  now: Date,
  // `bound` is an option so that a test can reach it without writing PREVIEW_SIGNALS journal entries.
  { limit = 20, bound = PREVIEW_SIGNALS }: { limit?: number; bound?: number } = {},
): Promise<RulePreview> {
  const at = `${now.toISOString().slice(0, 19)}Z`;
  const plans = await store.listPlans();
  const windowStart = alertWindowStart(plans, now);
  const windowDays = alertWindowDays(plans);
  const places = new Places(await store.listMunicipalities());
  const candidate = { ...rule, id: 0, enabled: true, created_at: at, matched_seq: 0, template_id: null };
  const found = new Map<string, { seq: number; match: AlertMatchInput }>();
  let entries = 0;
  let tooOld = 0;
  const tested = { count: 0, first: null as string | null, last: null as string | null };
  let before = (await store.lastChangeSeq()) + 1;
  let stopped: RulePreview['stopped'] = 'all';
  const olderLeft = async () => (await store.readChangesBefore(before, 1, ITEM_KINDS)).length > 0;
  for (;;) {
    const enough = entries >= PREVIEW_RECENT && found.size >= limit;
    if (enough || entries >= bound) {
      if (await olderLeft()) stopped = enough ? 'enough' : 'bound';
      break;
    }
    const size = Math.min(BATCH, bound - entries);
    const batch = await store.readChangesBefore(before, size, ITEM_KINDS);
    if (batch.length === 0) break;
    before = batch[batch.length - 1].seq;
    entries += batch.length;
    tooOld += batch.filter((e) => isTooOld(e, windowStart)).length;
    const current = batch.filter((e) => !isTooOld(e, windowStart));
    tested.count += current.length;
    for (const { date } of current) {
      if (date && (tested.first === null || date < tested.first)) tested.first = date;
      if (date && (tested.last === null || date > tested.last)) tested.last = date;
    }
    for (const { seq, item } of await loadItems(store, current, places)) {
      const match = await matchRule(candidate, item, ruleJudge, at);
      // Newest first: an item changed again later was already found at its latest entry.
      if (match && !found.has(item.key)) found.set(item.key, { seq, match });
    }
    if (batch.length < size) break;
  }
  const newestFirst = [...found.values()].sort((a, b) => b.seq - a.seq).map((f) => f.match);
  const window = windowStart !== null && windowDays !== null ? { days: windowDays, start: windowStart } : null;
  const outside = newestFirst.length === 0 && window ? await store.changesDatedBefore(window.start) : undefined;
  return {
    matches: newestFirst.slice(0, limit),
    total: newestFirst.length,
    entries,
    stopped,
    olderUnread: stopped !== 'all',
    limit,
    bound,
    tested,
    tooOld,
    window,
    ...(outside && outside.count > 0 && { outside }),
  };
}
