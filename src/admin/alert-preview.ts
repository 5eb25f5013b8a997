/**
 * What a rule would have matched, before it is saved (the console's preview, docs/alerts.md "Preview"): the
 * matcher's own items (`loadItems`, which leaves out the signals that no longer stand) and test (`matchRule`) over
 * the most recent journal entries inside the alert window, recording nothing. Bounded: it reads at most
 * PREVIEW_ENTRIES entries back from the journal's end, so a rule that matches rarely may preview nothing that it will
 * match later. It gives what it read (entries, items tested and their dates, items too old, the window) and, when
 * nothing matched, the journal's items older than the window, for the page to say why.
 */

import { ruleJudge } from '../alerts/judge.js';
import { loadItems, Places } from '../alerts/load-items.js';
import { isTooOld, type MatcherStore, matchRule } from '../alerts/run-matching.js';
import { alertWindowDays, alertWindowStart } from '../alerts/window.js';
import type { AlertMatchInput, AlertRuleEdit } from '../store/signal-records.js';
import type { JournalStore } from '../store/store.js';

/** How far back the preview reads the journal, in entries. */
export const PREVIEW_ENTRIES = 10_000;
const BATCH = 2_000;

export interface RulePreview {
  /** Newest first, at most `limit`. */
  matches: AlertMatchInput[];
  /** How many of the entries read it matched (more than `matches` holds when over the limit). */
  total: number;
  /** Journal entries read. */
  entries: number;
  /** Whether the journal holds entries older than those read (the preview stopped at PREVIEW_ENTRIES). */
  olderUnread: boolean;
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
    Pick<JournalStore, 'changesDatedBefore'>,
  rule: AlertRuleEdit & { account_id: number },
  now: Date,
  limit = 20,
): Promise<RulePreview> {
  const at = `${now.toISOString().slice(0, 19)}Z`;
  const plans = await store.listPlans();
  const windowStart = alertWindowStart(plans, now);
  const windowDays = alertWindowDays(plans);
  const places = new Places(await store.listMunicipalities());
  const candidate = { ...rule, id: 0, enabled: true, created_at: at, matched_seq: 0, template_id: null };
  const end = await store.lastChangeSeq();
  const found = new Map<string, { seq: number; match: AlertMatchInput }>();
  let entries = 0;
  let tooOld = 0;
  const tested = { count: 0, first: null as string | null, last: null as string | null };
  const start = Math.max(0, end - PREVIEW_ENTRIES);
  for (let after = start; after < end; ) {
    const batch = (await store.readChanges(after, BATCH)).filter((e) => e.seq <= end);
    if (batch.length === 0) break;
    after = batch[batch.length - 1].seq;
    entries += batch.length;
    tooOld += batch.filter((e) => isTooOld(e, windowStart)).length;
    const current = batch.filter((e) => e.kind !== 'observation' && !isTooOld(e, windowStart));
    tested.count += current.length;
    for (const { date } of current) {
      if (date && (tested.first === null || date < tested.first)) tested.first = date;
      if (date && (tested.last === null || date > tested.last)) tested.last = date;
    }
    for (const { seq, item } of await loadItems(store, current, places)) {
      const match = await matchRule(candidate, item, ruleJudge, at);
      if (match) found.set(item.key, { seq, match });
    }
  }
  const newestFirst = [...found.values()].sort((a, b) => b.seq - a.seq).map((f) => f.match);
  const window = windowStart !== null && windowDays !== null ? { days: windowDays, start: windowStart } : null;
  const outside = newestFirst.length === 0 && window ? await store.changesDatedBefore(window.start) : undefined;
  return {
    matches: newestFirst.slice(0, limit),
    total: newestFirst.length,
    entries,
    olderUnread: start > 0,
    tested,
    tooOld,
    window,
    ...(outside && outside.count > 0 && { outside }),
  };
}
