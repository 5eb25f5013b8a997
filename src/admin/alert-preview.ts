/**
 * What a rule would have matched, before it is saved (the console's preview, docs/alerts.md "Preview"): the
 * matcher's own items (`loadItems`, which leaves out the signals that no longer stand) and test (`matchRule`) over
 * the most recent journal entries inside the alert window, recording nothing. Bounded: it reads at most
 * PREVIEW_ENTRIES entries back from the journal's end, so a rule that matches rarely may preview nothing that it will
 * match later.
 */

import { ruleJudge } from '../alerts/judge.js';
import { loadItems, Places } from '../alerts/load-items.js';
import { isTooOld, type MatcherStore, matchRule } from '../alerts/run-matching.js';
import { alertWindowStart } from '../alerts/window.js';
import type { AlertMatchInput, AlertRuleEdit } from '../store/signal-records.js';

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
}

export async function previewRule(
  store: Omit<MatcherStore, 'recordAlertMatches' | 'listAlertRules' | 'findCaseId'>,
  rule: AlertRuleEdit & { account_id: number },
  now: Date,
  limit = 20,
): Promise<RulePreview> {
  const at = `${now.toISOString().slice(0, 19)}Z`;
  const windowStart = alertWindowStart(await store.listPlans(), now);
  const places = new Places(await store.listMunicipalities());
  const candidate = { ...rule, id: 0, enabled: true, created_at: at, matched_seq: 0, template_id: null };
  const end = await store.lastChangeSeq();
  const found = new Map<string, { seq: number; match: AlertMatchInput }>();
  let entries = 0;
  for (let after = Math.max(0, end - PREVIEW_ENTRIES); after < end; ) {
    const batch = (await store.readChanges(after, BATCH)).filter((e) => e.seq <= end);
    if (batch.length === 0) break;
    after = batch[batch.length - 1].seq;
    entries += batch.length;
    for (const { seq, item } of await loadItems(
      store,
      batch.filter((e) => e.kind !== 'observation' && !isTooOld(e, windowStart)),
      places,
    )) {
      const match = await matchRule(candidate, item, ruleJudge, at);
      if (match) found.set(item.key, { seq, match });
    }
  }
  const newestFirst = [...found.values()].sort((a, b) => b.seq - a.seq).map((f) => f.match);
  return { matches: newestFirst.slice(0, limit), total: newestFirst.length, entries };
}
