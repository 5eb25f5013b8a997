import { Type } from '@sinclair/typebox';
import type { Caller } from '../../access/caller.js';
import { defineOperation } from '../../core/operation.js';
import type { ReferenceData } from '../../core/reference.js';
import { Page, Paging } from '../../core/schemas.js';
import { ApiError } from '../../lib/errors.js';
import type { Store } from '../../store/store.js';
import { municipalitiesSearch } from '../municipalities/municipalities-search.js';
import {
  ChangeOrder,
  changeInstant,
  instantPosition,
  listPosition,
  SinceInstant,
  utcInstant,
} from '../shared/instants.js';
import { MAX_MUNICIPALITIES } from '../shared/municipality-filters.js';
import { alertRules } from './alert-rules.js';
import { matchesSynthetic, toAlertMatch } from './resources.js';
import { AlertMatchSummary, MatchStatus } from './schemas.js';

const DAY_MS = 86_400_000;
/** The start of an unbounded window (a plan whose `alerts_history_days` is null, no `since`). */
const EPOCH = '1970-01-01T00:00:00Z';

export const alertMatches = defineOperation({
  name: 'alert_matches',
  title: 'Matches on your alert rules',
  summary: "What the caller's alert rules matched, newest first, by rule, municipality, status and time.",
  description:
    'Lists the matches recorded on the calling account’s rules (alert_rules lists them): each with its rule, what ' +
    'matched (`source_type`, title, snippet, link), the municipality, a score, its status and the signal case it ' +
    'belongs to. Ordered by matched_at descending, then id descending; page with `cursor`. Every filter given must ' +
    'hold: `rule` (one of your rule ids), `municipality` (integer municipality ids, repeatable), `status` (matched ' +
    "or dismissed), `since` (a watermark: matches recorded at or after it). Only the plan's alert-history window is " +
    'served (`alerts_history_days` in me): a `since` earlier than the window is moved to its start, not refused. ' +
    '`updated_since`: only matches recorded or dismissed or restored after it, oldest change first (for syncing ' +
    'copies); the window still applies to matched_at. On ' +
    'plans with the judge, a match carries `judge` once a verdict exists — an annotation only, it never hides a match.',
  domain: 'alerts',
  scope: 'alerts:read',
  input: Type.Object(
    {
      rule: Type.Optional(
        Type.Integer({ minimum: 1, description: 'Only matches of this rule (one of yours: alert_rules).' }),
      ),
      municipality: Type.Optional(
        Type.Array(
          Type.Integer({ minimum: 1, description: 'A municipality id (1–308), the `id` of municipalities_search.' }),
          {
            minItems: 1,
            maxItems: MAX_MUNICIPALITIES,
            description:
              `In this municipality (its integer id). ` +
              `Repeat the parameter for several (at most ${MAX_MUNICIPALITIES}).`,
          },
        ),
      ),
      status: Type.Optional(MatchStatus),
      since: SinceInstant('matches recorded'),
      ...ChangeOrder('matches'),
      ...Paging,
    },
    { additionalProperties: false },
  ),
  output: Page(AlertMatchSummary, 'AlertMatchSummary'),
  rest: { path: '/v1/alert-matches' },
  cache: 'caller',
  examples: [
    { title: 'My latest matches', input: { limit: 20 } },
    {
      title: 'Matches not dismissed in Lisboa (id 153) and Porto (id 190) since July 2026',
      input: { municipality: [153, 190], status: 'matched', since: '2026-07-01T00:00:00Z' },
    },
  ],
  async handler(input, { store, reference, caller, paging, now }) {
    if (input.rule !== undefined) await checkOwnRule(store, caller, input.rule);
    const updatedSince = changeInstant(input.updated_since);
    const rows = await store.listAlertMatches(
      {
        accountId: caller.account.id,
        ruleId: input.rule,
        municipalityIds:
          input.municipality === undefined ? undefined : knownMunicipalities(reference, input.municipality),
        status: input.status,
        since: windowStart(now, caller.plan.alerts_history_days, input.since),
        updatedSince,
      },
      { after: instantPosition(paging.after), limit: paging.limit + 1 },
    );
    const synthetic = await matchesSynthetic(store, reference, rows);
    return paging.page(
      rows.map((m, i) => toAlertMatch(m, caller.plan.judge, synthetic[i])),
      listPosition(updatedSince, (m) => [m.matched_at, m.id]),
    );
  },
});

/**
 * The first instant served: the later of the plan's window start (now − alerts_history_days) and `since`, so
 * that `since` only ever narrows the window.
 */
export function windowStart(now: Date, historyDays: number | null, since: string | undefined): string {
  const window = historyDays === null ? EPOCH : utcInstant(new Date(now.getTime() - historyDays * DAY_MS));
  const asked = since === undefined ? EPOCH : utcInstant(since);
  return asked > window ? asked : window;
}

/** Another account's rule is answered exactly like a missing one: nothing tells that it exists. */
async function checkOwnRule(store: Store, caller: Caller, ruleId: number): Promise<void> {
  const rule = await store.getAlertRule(ruleId);
  if (rule === undefined || rule.account_id !== caller.account.id) {
    throw new ApiError('validation-error', {
      detail: `You have no alert rule with id ${ruleId}.`,
      see: { operation: alertRules, does: 'lists yours' },
      errors: [{ field: 'rule', message: 'is not the id of one of your alert rules' }],
    });
  }
}

function knownMunicipalities(reference: ReferenceData, ids: readonly number[]): number[] {
  const unknown = ids.filter((id) => reference.municipalityById(id) === undefined);
  if (unknown.length > 0) {
    throw new ApiError('validation-error', {
      detail: `Unknown municipality id ${unknown.join(', ')}. Municipality ids run from 1 to 308.`,
      see: { operation: municipalitiesSearch, does: "gives each municipality's `id`" },
      errors: [{ field: 'municipality', message: `has unknown municipality id ${unknown.join(', ')}` }],
    });
  }
  return [...new Set(ids)];
}
