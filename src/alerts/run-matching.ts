/**
 * The alert matcher: checks every enabled rule against what changed since it last looked (the change journal,
 * from each rule's `matched_seq`), and records each (rule, item) match once. A batch's matches and the rules'
 * `matched_seq` are written in one transaction, so a run cut half-way resumes with the same result; matches are
 * dated by the run, so polling with `since` misses none; items older than the plans' longest window are skipped
 * (window.ts), and signals withdrawn or expired by the time they are read are not items (matchable.ts). Runs at the
 * end of `munidata detect` and alone as `munidata alerts match` (docs/alerts.md, "The matcher").
 */
import type { AlertMatchInput, AlertRuleRecord, ChangeEntry } from '../store/signal-records.js';
import type { AccessStore, AlertStore, JournalStore, ReferenceStore, SignalWriteStore } from '../store/store.js';
import { caseIds } from './case-lookup.js';
import type { AlertItem } from './item.js';
import { type AlertJudge, ruleJudge } from './judge.js';
import { type ItemStore, loadItems, Places } from './load-items.js';
import { type MatchOutcome, matchItem, matchScore } from './matchers.js';
import { matchPlace } from './place.js';
import { alertWindowStart } from './window.js';

export type MatcherStore = ItemStore &
  Pick<AlertStore, 'listAlertRules' | 'recordAlertMatches'> &
  Pick<JournalStore, 'readChanges' | 'lastChangeSeq'> &
  Pick<ReferenceStore, 'listMunicipalities'> &
  Pick<AccessStore, 'listPlans'> &
  Pick<SignalWriteStore, 'findCaseId'>;

export interface AlertMatchingOptions {
  now: Date;
  /** Default: `ruleJudge`, the deterministic one. */
  judge?: AlertJudge;
  /** Journal entries per batch (and per transaction). */
  batchSize?: number;
}

export interface AlertMatchingSummary {
  /** Enabled rules checked. */
  rules: number;
  /** Journal entries read. */
  entries: number;
  /** Entries skipped as older than every plan's alert window. */
  too_old: number;
  /** Matches recorded in this run. */
  matched: number;
  /** Matches found again for a (rule, item) already recorded, and not written. */
  already_matched: number;
  /** The last journal entry read (0 when none). */
  last_seq: number;
}

const DEFAULT_BATCH = 2_000;
const RULE_PAGE = 200;

export async function runAlertMatching(
  store: MatcherStore,
  options: AlertMatchingOptions,
): Promise<AlertMatchingSummary> {
  // To the second, as every instant the store compares as text (signals' last_seen_at among them).
  const now = `${options.now.toISOString().slice(0, 19)}Z`;
  const judge = options.judge ?? ruleJudge;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const rules = await enabledRules(store);
  const summary: AlertMatchingSummary = {
    rules: rules.length,
    entries: 0,
    too_old: 0,
    matched: 0,
    already_matched: 0,
    last_seq: 0,
  };
  if (rules.length === 0) return summary;

  const windowStart = alertWindowStart(await store.listPlans(), options.now);
  const places = new Places(await store.listMunicipalities());
  // Entries appended while this run works are left to the next run, so that a busy journal cannot keep it going.
  const end = await store.lastChangeSeq();
  let after = Math.min(...rules.map((r) => r.matched_seq));
  while (after < end) {
    const entries = (await store.readChanges(after, batchSize)).filter((e) => e.seq <= end);
    if (entries.length === 0) break;
    const batchEnd = entries[entries.length - 1].seq;
    const current = entries.filter((e) => e.kind !== 'observation' && !isTooOld(e, windowStart));
    summary.entries += entries.length;
    summary.too_old += entries.filter((e) => isTooOld(e, windowStart)).length;

    const found: { match: AlertMatchInput; item: AlertItem }[] = [];
    const seen = new Set<string>();
    for (const { seq, item } of await loadItems(store, current, places)) {
      for (const rule of rules) {
        const pair = `${rule.id} ${item.key}`;
        if (rule.matched_seq >= seq || seen.has(pair)) continue;
        // Most rules find nothing in most items: only a find waits on the judge.
        const finding = ruleFinds(rule, item);
        if (!finding) continue;
        const match = await matchOf(rule, item, finding, judge, now);
        seen.add(pair);
        found.push({ match, item });
      }
    }
    const cases = await caseIds(
      store,
      found.flatMap(({ item }) => (item.case_key === null ? [] : [item.case_key])),
    );
    const matches = found.map(({ match, item }) =>
      item.case_key === null ? match : { ...match, case_id: cases.get(item.case_key) ?? null },
    );
    const advanced = rules.filter((r) => r.matched_seq < batchEnd);
    const written = await store.recordAlertMatches({
      matches,
      matchedSeq: advanced.map((r) => ({ ruleId: r.id, seq: batchEnd })),
    });
    for (const rule of advanced) rule.matched_seq = batchEnd;
    summary.matched += written.inserted;
    summary.already_matched += written.skipped;
    summary.last_seq = batchEnd;
    after = batchEnd;
  }
  return summary;
}

/** The journal entry the least advanced enabled rule has been matched up to; null when no rule is enabled. */
export async function matchedUpTo(store: MatcherStore): Promise<number | null> {
  const rules = await enabledRules(store);
  return rules.length === 0 ? null : Math.min(...rules.map((r) => r.matched_seq));
}

async function enabledRules(store: MatcherStore): Promise<AlertRuleRecord[]> {
  const rules: AlertRuleRecord[] = [];
  for (;;) {
    const page = await store.listAlertRules({ enabledOnly: true }, { after: rules.at(-1)?.id, limit: RULE_PAGE });
    rules.push(...page);
    if (page.length < RULE_PAGE) return rules;
  }
}

export function isTooOld(entry: ChangeEntry, windowStart: string | null): boolean {
  return windowStart !== null && entry.date !== null && entry.date < windowStart;
}

/** What `rule` finds in `item` and for which municipality, or null when the rule does not look for it. */
function ruleFinds(rule: AlertRuleRecord, item: AlertItem): Finding | null {
  if (rule.source_types.length > 0 && !rule.source_types.includes(item.source_type)) return null;
  const municipalityId = matchPlace(rule, item);
  if (municipalityId === undefined) return null;
  const outcome = matchItem(rule, item);
  return outcome ? { municipalityId, outcome } : null;
}

interface Finding {
  municipalityId: number | null;
  outcome: MatchOutcome;
}

/** The match of `rule` on `item`, or null when the rule does not look for it (the console's preview uses it too). */
export async function matchRule(
  rule: AlertRuleRecord,
  item: AlertItem,
  judge: AlertJudge,
  now: string,
): Promise<AlertMatchInput | null> {
  const finding = ruleFinds(rule, item);
  return finding && matchOf(rule, item, finding, judge, now);
}

/** A finding recorded as a match, with the judge's verdict. */
async function matchOf(
  rule: AlertRuleRecord,
  item: AlertItem,
  { municipalityId, outcome }: Finding,
  judge: AlertJudge,
  now: string,
): Promise<AlertMatchInput> {
  return {
    rule_id: rule.id,
    item_key: item.key,
    source_type: item.source_type,
    municipality_id: municipalityId,
    score: matchScore(outcome, item),
    title: item.title,
    snippet: outcome.snippet,
    link: item.link,
    matched_at: now,
    case_id: item.case_id,
    judge: await verdictOf(judge, { rule, item, outcome, today: now.slice(0, 10) }),
  };
}

/** A judge that fails leaves the verdict pending: the match is recorded all the same. */
async function verdictOf(judge: AlertJudge, context: Parameters<AlertJudge['judge']>[0]) {
  try {
    return await judge.judge(context);
  } catch {
    return null;
  }
}
