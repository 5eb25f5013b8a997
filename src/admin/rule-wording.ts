/**
 * How a refusal names what was given wrong: the command line by its options (`--keyword`), the console by its form's
 * labels (“Words or phrases”). The admin functions that check a rule take one, so each caller's refusals speak its
 * own words without rewriting another's text (docs/console.md, Alerts).
 */
import { withIndefinite } from '../lib/english-articles.js';
import type { MatcherType } from '../lib/vocabulary.js';

/** A rule's fields, by the names of the options that carry them (alert-params.ts, alert-places.ts). */
export type RuleField =
  | 'name'
  | 'type'
  | 'keywords'
  | 'cpv'
  | 'nifs'
  | 'signalTypes'
  | 'signalFamilies'
  | 'minConfidence'
  | 'indicator'
  | 'above'
  | 'below'
  | 'sourceTypes'
  | 'municipalities'
  | 'district';

export interface RuleWording {
  /** A field: `--keyword`; `“Words or phrases”`. */
  field(field: RuleField): string;
  /** A matcher type as it is chosen: `--type keyword`; `“Words in the text”`. */
  choice(type: MatcherType): string;
  /** A matcher type named in passing: `keyword`; `“Words in the text”`. */
  type(type: MatcherType): string;
  /** A rule of a type, as a sentence's subject: `A keyword rule`; `A rule for “Words in the text”`. */
  rule(type: MatcherType): string;
  /** A field with what it takes: `--above N`; `“Above”` (the form shows what the field takes). */
  option(field: RuleField, takes: string): string;
}

const FLAGS: Record<RuleField, string> = {
  name: '--name',
  type: '--type',
  keywords: '--keyword',
  cpv: '--cpv',
  nifs: '--nif',
  signalTypes: '--signal-type',
  signalFamilies: '--signal-family',
  minConfidence: '--min-confidence',
  indicator: '--indicator',
  above: '--above',
  below: '--below',
  sourceTypes: '--source-type',
  municipalities: '--municipality',
  district: '--district',
};

/** The command line's words (`munidata alerts rule create`), and every caller's that gives none. */
export const COMMAND_LINE: RuleWording = {
  field: (field) => FLAGS[field],
  choice: (type) => `--type ${type}`,
  type: (type) => type,
  rule: (type) => `${withIndefinite(type).replace(/^a/, 'A')} rule`,
  option: (field, takes) => `${FLAGS[field]} ${takes}`,
};

/** A form's wording from its labels: each quoted as the form shows it. */
export function formWording(
  fields: Readonly<Record<RuleField, string>>,
  types: Readonly<Record<MatcherType, string>>,
): RuleWording {
  return {
    field: (field) => `“${fields[field]}”`,
    choice: (type) => `“${types[type]}”`,
    type: (type) => `“${types[type]}”`,
    rule: (type) => `A rule for “${types[type]}”`,
    option: (field) => `“${fields[field]}”`,
  };
}
