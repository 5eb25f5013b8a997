/**
 * Whether a rule watches where an item happens, and which municipality the match is then filed under.
 */
import { nameKey } from '../lib/text-match.js';
import type { AlertRuleRecord } from '../store/signal-records.js';
import type { AlertItem } from './item.js';

export type RulePlace = Pick<AlertRuleRecord, 'target_scope' | 'municipality_ids' | 'district'>;

/**
 * `undefined` when the rule does not watch the item's place; otherwise the match's municipality: the first of
 * the item's municipalities the rule watches (any of them for a national rule), or null for a national rule on
 * an item without one, or a district rule on an announcement that names the district but no municipality.
 */
export function matchPlace(rule: RulePlace, item: AlertItem): number | null | undefined {
  if (rule.target_scope === 'national') return item.municipality_ids[0] ?? null;
  const watched = rule.municipality_ids;
  const found = item.municipality_ids.find((id) => watched.includes(id));
  if (found !== undefined) return found;
  if (
    rule.target_scope === 'district' &&
    rule.district &&
    item.district &&
    nameKey(item.district) === nameKey(rule.district)
  ) {
    return null;
  }
  return undefined;
}
