/**
 * The alert rule form (docs/console.md, Alerts): its fields as the page shows them, read back into the options
 * `munidata alerts rule create` takes, so that the CLI's checks (src/admin/alert-params.ts, alert-places.ts) judge
 * both. Every field of every matcher type is read and handed on: a field of another type than the one chosen is
 * refused with the CLI's message, never silently dropped.
 */
import type { RuleChoices } from '../../admin/alert-choices.js';
import type { PlaceOptions } from '../../admin/alert-places.js';
import type { RuleOptions } from '../../admin/alert-rules.js';
import { formWording, type RuleField, type RuleWording } from '../../admin/rule-wording.js';
import { AdminError } from '../../lib/admin-error.js';
import { ALERT_SOURCE_TYPES, MATCHER_TYPES, type MatcherType } from '../../lib/vocabulary.js';
import type { AlertRuleRecord } from '../../store/signal-records.js';
import type { Html } from '../html.js';
import { html, joined } from '../html.js';
import type { FormFields } from './form-fields.js';

/** What the form shows: the text of each field, as typed or as the stored rule reads. */
export interface RuleFormValues {
  name: string;
  type: string;
  keywords: string;
  cpv: string;
  nifs: string;
  signalTypes: string[];
  signalFamilies: string[];
  minConfidence: string;
  indicator: string;
  above: string;
  below: string;
  sourceTypes: string[];
  scope: string;
  municipalities: string;
  district: string;
}

export const EMPTY_RULE: RuleFormValues = {
  name: '',
  type: 'keyword',
  keywords: '',
  cpv: '',
  nifs: '',
  signalTypes: [],
  signalFamilies: [],
  minConfidence: '',
  indicator: '',
  above: '',
  below: '',
  sourceTypes: [],
  scope: 'national',
  municipalities: '',
  district: '',
};

export function readRuleForm(form: FormFields): RuleFormValues {
  return {
    name: form.text('name'),
    type: form.text('type'),
    keywords: form.text('keywords'),
    cpv: form.text('cpv'),
    nifs: form.text('nifs'),
    signalTypes: form.list('signal_types'),
    signalFamilies: form.list('signal_families'),
    minConfidence: form.text('min_confidence'),
    indicator: form.text('indicator'),
    above: form.text('above'),
    below: form.text('below'),
    sourceTypes: form.list('source_types'),
    scope: form.text('scope') || 'national',
    municipalities: form.text('municipalities'),
    district: form.text('district'),
  };
}

/** The stored rule as the form shows it, for editing; `codes` names its municipalities by code. */
export function ruleFormValues(rule: AlertRuleRecord, codes: ReadonlyMap<number, string>): RuleFormValues {
  const p = rule.params;
  return {
    name: rule.name,
    type: rule.matcher_type,
    keywords: (p.keywords ?? []).join('\n'),
    cpv: (p.cpv_prefixes ?? []).join(' '),
    nifs: (p.nifs ?? []).join(' '),
    signalTypes: p.signal_types ?? [],
    signalFamilies: p.signal_families ?? [],
    minConfidence: decimal(p.min_confidence),
    indicator: p.indicator ?? '',
    above: decimal(p.above),
    below: decimal(p.below),
    // A signal-only rule stores ["signal"] because its type implies it: the form leaves the boxes as chosen.
    sourceTypes:
      rule.matcher_type === 'signal_type' || rule.matcher_type === 'indicator_threshold' ? [] : rule.source_types,
    scope: rule.target_scope,
    municipalities:
      rule.target_scope === 'municipalities' ? rule.municipality_ids.map((id) => codes.get(id) ?? '').join(', ') : '',
    district: rule.district ?? '',
  };
}

/** The options of `alerts rule create` the form's values stand for (a number that is not one is refused here). */
export function ruleOptions(v: RuleFormValues): Omit<RuleOptions, 'account'> {
  const words = (text: string) => text.split(/[\s,;]+/).filter((w) => w !== '');
  const place = placeOptions(v);
  return {
    name: v.name,
    type: v.type,
    keywords: v.keywords.split('\n').filter((k) => k.trim() !== ''),
    cpv: words(v.cpv),
    nifs: words(v.nifs),
    signalTypes: v.signalTypes,
    signalFamilies: v.signalFamilies,
    minConfidence: number(v.minConfidence, 'minConfidence'),
    indicator: v.indicator.trim() || undefined,
    above: number(v.above, 'above'),
    below: number(v.below, 'below'),
    sourceTypes: v.sourceTypes,
    ...place,
  };
}

/** The place a form names, as the command line's `--municipality` or `--district` give it (neither: national). */
export function placeOptions(v: Pick<RuleFormValues, 'scope' | 'municipalities' | 'district'>): PlaceOptions {
  if (v.scope === 'national') return {};
  if (v.scope === 'district') return { district: v.district.trim() || refuse('Choose a district.') };
  if (v.scope !== 'municipalities') refuse(`Unknown place "${v.scope}": national, municipalities or district.`);
  const named = v.municipalities
    .split(/[,;\n]+/)
    .map((m) => m.trim())
    .filter((m) => m !== '');
  return { municipalities: required(named) };
}

function required(municipalities: string[]): string[] {
  if (municipalities.length === 0) refuse('Name at least one municipality: its code or its slug (1106 or lisboa).');
  return municipalities;
}

/** A stored number as the form shows it: a decimal comma (`12,5`), every digit kept, read back by `number`. */
function decimal(value: number | undefined): string {
  return value === undefined ? '' : String(value).replace('.', ',');
}

function number(text: string, field: RuleField): number | undefined {
  if (text.trim() === '') return undefined;
  const n = Number(text.replace(/\s/g, '').replace(',', '.')); // `15 000` or `12,5`, as the explorer writes them
  if (!Number.isFinite(n)) refuse(`${FORM.field(field)} "${text}" is not a number.`);
  return n;
}

function refuse(message: string): never {
  throw new AdminError(message);
}

/** The fields of the rule form (without the form element and its buttons), labelled in words, not options. */
export function ruleFields(v: RuleFormValues, choices: RuleChoices): Html {
  const checked = (on: boolean) => on && html` checked`;
  const selected = (on: boolean) => on && html` selected`;
  const named = (key: string) => choices.names.get(key) ?? inWords(key);
  // The values stay the API's keys (matcher_type, source_types, signal_types): a person reads the words.
  const boxes = (name: string, options: readonly string[], chosen: readonly string[], words = inWords) =>
    options.map(
      (o) =>
        html`<label><input type="checkbox" name="${name}" value="${o}"${checked(chosen.includes(o))}> ${words(
          o,
        )}</label>`,
    );
  return html`<label for="name">${FIELD_LABELS.name}</label>
<input id="name" name="name" type="text" maxlength="200" value="${v.name}" required>
<label for="type">${FIELD_LABELS.type}</label>
<select id="type" name="type">${MATCHER_TYPES.map(
    (t) => html`<option value="${t}"${selected(v.type === t)}>${TYPE_LABELS[t]}</option>`,
  )}</select>
<fieldset>
<legend id="keywords-label">${FIELD_LABELS.keywords}, one a line (for words in the text)</legend>
<textarea id="keywords" name="keywords" class="short" aria-labelledby="keywords-label">${v.keywords}</textarea>
</fieldset>
<fieldset>
<legend id="cpv-label">${FIELD_LABELS.cpv}: 1 to 8 digits each (for procurement categories)</legend>
<input id="cpv" name="cpv" type="text" value="${v.cpv}" aria-labelledby="cpv-label" placeholder="45 4523"></fieldset>
<fieldset><legend id="nifs-label">${FIELD_LABELS.nifs} of buyers or suppliers, 9 digits each</legend>
<input id="nifs" name="nifs" type="text" value="${v.nifs}" aria-labelledby="nifs-label" placeholder="500000000">
</fieldset>
<fieldset><legend>Signals of these families or types (for signals)</legend>
<p><strong>${FIELD_LABELS.signalFamilies}:</strong> ${boxes(
    'signal_families',
    choices.signalFamilies,
    v.signalFamilies,
    named,
  )}</p>
<p><strong>${FIELD_LABELS.signalTypes}:</strong> ${boxes('signal_types', choices.signalTypes, v.signalTypes, named)}</p>
<label for="min_confidence">${FIELD_LABELS.minConfidence}, 0 to 1 (optional)</label>
<input id="min_confidence" name="min_confidence" type="text" inputmode="decimal" value="${v.minConfidence}"></fieldset>
<fieldset><legend>An indicator above or below a bound (for an indicator crossing a bound)</legend>
<label for="indicator">${FIELD_LABELS.indicator}</label>
<select id="indicator" name="indicator"><option value=""></option>${choices.indicators.map(
    (k) => html`<option value="${k}"${selected(v.indicator === k)}>${named(k)}</option>`,
  )}</select>
<label for="above">${FIELD_LABELS.above}</label>
<input id="above" name="above" type="text" inputmode="decimal" value="${v.above}">
<label for="below">${FIELD_LABELS.below}</label>
<input id="below" name="below" type="text" inputmode="decimal" value="${v.below}"></fieldset>
<fieldset><legend>${FIELD_LABELS.sourceTypes} (none ticked: all)</legend>${boxes(
    'source_types',
    ALERT_SOURCE_TYPES,
    v.sourceTypes,
    (t) => SOURCE_LABELS[t] ?? inWords(t),
  )}</fieldset>
${placeFields(v, choices.districts)}`;
}

/** A key of the API's in words: `direct_award_high_value` → `direct award high value`. */
function inWords(key: string): string {
  return key.replaceAll('_', ' ');
}

const SOURCE_LABELS: Record<string, string> = {
  signal: 'signals',
  procurement_announcement: 'calls for tenders',
  procurement_contract: 'contracts',
  procurement_amendment: 'contract amendments',
};

/** What a rule reads, in the form's words: `calls for tenders, contracts`; `everything` when it names none. */
export function sourcesInWords(types: readonly string[]): string {
  return types.length === 0 ? 'everything' : types.map((t) => SOURCE_LABELS[t] ?? inWords(t)).join(', ');
}

/**
 * The form's labels, by the rule field each edits: the page shows them, and the refusals it shares with the command
 * line name the fields by them (`FORM`, docs/console.md, Alerts).
 */
const FIELD_LABELS: Record<RuleField, string> = {
  name: 'Name',
  keywords: 'Words or phrases',
  cpv: 'CPV codes or their first digits',
  nifs: 'Tax numbers (NIF)',
  signalTypes: 'Signal types',
  signalFamilies: 'Signal families',
  minConfidence: 'At least this confident',
  indicator: 'Indicator',
  above: 'Above',
  below: 'Below',
  sourceTypes: 'What it reads',
  municipalities: 'Municipalities',
  district: 'District',
  type: 'What it looks for',
};

/** Where: the whole country, named municipalities or a district (a rule's form and a subscription's). */
export function placeFields(
  v: Pick<RuleFormValues, 'scope' | 'municipalities' | 'district'>,
  districts: readonly string[],
): Html {
  const radio = (value: string, label: string) =>
    html`<label><input type="radio" name="scope" value="${value}"${
      v.scope === value && html` checked`
    }> ${label}</label>`;
  return html`<fieldset><legend>Where</legend>
<p>${joined(
    [
      radio('national', 'The whole country'),
      radio('municipalities', 'These municipalities'),
      radio('district', 'This district'),
    ],
    ' ',
  )}</p>
<label for="municipalities">${FIELD_LABELS.municipalities}: codes or slugs, separated by commas</label>
<input id="municipalities" name="municipalities" type="text" value="${v.municipalities}" placeholder="1106, porto">
<label for="district">${FIELD_LABELS.district}</label>
<select id="district" name="district"><option value=""></option>${districts.map(
    (d) => html`<option value="${d}"${v.district === d && html` selected`}>${d}</option>`,
  )}</select></fieldset>`;
}

const TYPE_LABELS: Record<MatcherType, string> = {
  keyword: 'Words in the text',
  cpv: 'Procurement categories (CPV)',
  entity: 'A buyer or supplier',
  signal_type: 'Signals',
  indicator_threshold: 'An indicator crossing a bound',
};

/** A matcher type as the form's choice names it (`Words in the text`); an unknown one as it is stored. */
export function typeInWords(type: string): string {
  return TYPE_LABELS[type as MatcherType] ?? type;
}

/** How a refusal names the form's fields: `“CPV codes or their first digits” "45x" is not a CPV prefix…`. */
export const FORM: RuleWording = formWording(FIELD_LABELS, TYPE_LABELS);
