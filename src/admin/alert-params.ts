/**
 * What an operator gives to describe a rule's matcher (`alerts rule create --type … --keyword …`), checked and
 * turned into MatcherParams: every parameter of the type present and valid, none of another type.
 */

import { normaliseNif } from '../ingest/base/parties.js';
import { AdminError } from '../lib/admin-error.js';
import { isValidNif } from '../lib/nif.js';
import { queryTokens } from '../lib/text-match.js';
import { ALERT_SOURCE_TYPES, type AlertSourceType, MATCHER_TYPES, type MatcherType } from '../lib/vocabulary.js';
import { findSignalType, isSignalFamily, SIGNAL_FAMILY_KEYS, SIGNAL_TYPE_KEYS } from '../signals/catalogue.js';
import type { MatcherParams } from '../store/signal-records.js';
import type { Store } from '../store/store.js';
import { COMMAND_LINE, type RuleWording } from './rule-wording.js';

export interface MatcherOptions {
  type: string;
  keywords?: string[];
  cpv?: string[];
  nifs?: string[];
  signalTypes?: string[];
  signalFamilies?: string[];
  minConfidence?: number;
  indicator?: string;
  above?: number;
  below?: number;
  sourceTypes?: string[];
}

/** The options each matcher type reads. */
const OPTIONS_OF: Record<MatcherType, readonly (keyof MatcherOptions)[]> = {
  keyword: ['keywords'],
  cpv: ['cpv'],
  entity: ['nifs'],
  signal_type: ['signalTypes', 'signalFamilies', 'minConfidence'],
  indicator_threshold: ['indicator', 'above', 'below'],
};
/** Matchers that only ever match signals. */
const SIGNAL_ONLY: readonly MatcherType[] = ['signal_type', 'indicator_threshold'];

export function matcherType(text: string): MatcherType {
  const type = MATCHER_TYPES.find((t) => t === text);
  if (!type) throw new AdminError(`Unknown matcher type "${text}". Types: ${MATCHER_TYPES.join(', ')}.`);
  return type;
}

/** The matcher's parameters, each checked; a refusal names the options in the caller's words (`w`). */
export async function matcherParams(
  store: Pick<Store, 'listIndicators'>,
  type: MatcherType,
  o: MatcherOptions,
  w: RuleWording = COMMAND_LINE,
): Promise<MatcherParams> {
  for (const [other, keys] of Object.entries(OPTIONS_OF) as [MatcherType, (keyof MatcherOptions)[]][]) {
    if (other === type) continue;
    const given = keys.find((k) => o[k] !== undefined && !(Array.isArray(o[k]) && (o[k] as unknown[]).length === 0));
    if (given) throw new AdminError(`${w.field(given)} is for ${w.choice(other)}, not ${w.type(type)}.`);
  }
  switch (type) {
    case 'keyword':
      return {
        keywords: required(o.keywords, `${w.rule('keyword')} needs at least one ${w.field('keywords')}.`).map((k) =>
          keywordPhrase(k, w),
        ),
      };
    case 'cpv':
      return {
        cpv_prefixes: required(
          o.cpv,
          `${w.rule('cpv')} needs at least one CPV prefix in ${w.field('cpv')} (e.g. 45).`,
        ).map((c) => cpvPrefix(c, w)),
      };
    case 'entity':
      return {
        nifs: [
          ...new Set(
            required(o.nifs, `${w.rule('entity')} needs at least one ${w.field('nifs')}.`).map((n) => taxNumber(n, w)),
          ),
        ],
      };
    case 'signal_type':
      return signalTypeParams(o, w);
    case 'indicator_threshold':
      return indicatorThreshold(store, o, w);
  }
}

/**
 * The source types a rule watches (empty: all). A signal_type or indicator_threshold rule watches signals only,
 * so it says so (and refuses another source type).
 */
export function sourceTypes(
  type: MatcherType,
  given: readonly string[] | undefined,
  w: RuleWording = COMMAND_LINE,
): AlertSourceType[] {
  const option = w.field('sourceTypes');
  const types = [...new Set(given ?? [])].map((text) => {
    const found = ALERT_SOURCE_TYPES.find((t) => t === text);
    if (!found) throw new AdminError(`Unknown ${option} "${text}". Source types: ${ALERT_SOURCE_TYPES.join(', ')}.`);
    return found;
  });
  if (!SIGNAL_ONLY.includes(type)) return types;
  if (types.some((t) => t !== 'signal'))
    throw new AdminError(`${w.rule(type)} matches signals only: ${option} can only be signal.`);
  return ['signal'];
}

function required<T>(values: T[] | undefined, message: string): T[] {
  if (!values || values.length === 0) throw new AdminError(message);
  return values;
}

/**
 * A phrase as stored: spaces collapsed; it must have a word of two characters or more (one letter matches anything).
 */
function keywordPhrase(text: string, w: RuleWording): string {
  const phrase = text.replace(/\s+/g, ' ').trim();
  if (!queryTokens(phrase).some((t) => t.length >= 2)) {
    throw new AdminError(`${w.field('keywords')} "${text}" has no word of two characters or more.`);
  }
  return phrase;
}

/** 1 to 8 digits; a full code with its check digit (`45233140-2`, as the portal shows it) loses the check digit. */
function cpvPrefix(text: string, w: RuleWording): string {
  const t = text.trim();
  const withCheck = /^(\d{8})-\d$/.exec(t);
  if (withCheck) return withCheck[1];
  if (!/^\d{1,8}$/.test(t))
    throw new AdminError(`${w.field('cpv')} "${text}" is not a CPV prefix: 1 to 8 digits (45, 4523, 45233140).`);
  return t;
}

function taxNumber(text: string, w: RuleWording): string {
  const nif = normaliseNif(text.trim());
  if (!/^\d{9}$/.test(nif))
    throw new AdminError(`${w.field('nifs')} "${text}" is not a Portuguese tax number (nine digits).`);
  if (!isValidNif(nif)) throw new AdminError(`${w.field('nifs')} ${nif} fails the check digit: check the number.`);
  return nif;
}

/** Types, families or both (at least one of them), and a confidence floor when given. */
function signalTypeParams(o: MatcherOptions, w: RuleWording): MatcherParams {
  const types = [...new Set((o.signalTypes ?? []).map((t) => signalType(t, w)))];
  const families = [...new Set((o.signalFamilies ?? []).map((f) => signalFamily(f, w)))];
  if (types.length === 0 && families.length === 0) {
    throw new AdminError(
      `${w.rule('signal_type')} needs at least one ${w.field('signalTypes')} or ${w.field('signalFamilies')}.`,
    );
  }
  if (o.minConfidence !== undefined && !(o.minConfidence >= 0 && o.minConfidence <= 1))
    throw new AdminError(`${w.field('minConfidence')} ${o.minConfidence} is not between 0 and 1.`);
  return {
    ...(types.length > 0 && { signal_types: types }),
    ...(families.length > 0 && { signal_families: families }),
    ...(o.minConfidence !== undefined && { min_confidence: o.minConfidence }),
  };
}

function signalFamily(text: string, w: RuleWording): string {
  if (!isSignalFamily(text))
    throw new AdminError(`Unknown ${w.field('signalFamilies')} "${text}". Families: ${SIGNAL_FAMILY_KEYS.join(', ')}.`);
  return text;
}

function signalType(text: string, w: RuleWording): string {
  if (!findSignalType(text))
    throw new AdminError(`Unknown ${w.field('signalTypes')} "${text}". Signal types: ${SIGNAL_TYPE_KEYS.join(', ')}.`);
  return text;
}

async function indicatorThreshold(
  store: Pick<Store, 'listIndicators'>,
  o: MatcherOptions,
  w: RuleWording,
): Promise<MatcherParams> {
  const [indicator, above, below] = [w.option('indicator', 'KEY'), w.option('above', 'N'), w.option('below', 'N')];
  const rule = w.rule('indicator_threshold');
  if (o.indicator === undefined) throw new AdminError(`${rule} needs ${indicator} and ${above} or ${below}.`);
  const indicators = await store.listIndicators();
  if (!indicators.some((i) => i.key === o.indicator)) {
    throw new AdminError(
      `No indicator "${o.indicator}" (munidata's catalogue keys, e.g. ${indicators[0]?.key ?? 'population'}).`,
    );
  }
  if ((o.above === undefined) === (o.below === undefined)) {
    throw new AdminError(`${rule} needs exactly one of ${above} or ${below}.`);
  }
  return o.above !== undefined
    ? { indicator: o.indicator, above: o.above }
    : { indicator: o.indicator, below: o.below };
}
