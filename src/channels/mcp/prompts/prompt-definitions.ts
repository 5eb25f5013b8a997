/**
 * The prompts (docs/mcp.md, Prompts): ready analyses in Portuguese and in English. Each names the reads it embeds
 * (an operation and its input, from the arguments), so that a client without tools gets the data with the prompt.
 */
import type { AnyOperation } from '../../../core/operation.js';
import type { ReferenceData } from '../../../core/reference.js';
import { MAX_LIMIT } from '../../../core/schemas.js';
import { indicatorsGet } from '../../../operations/indicators/indicators-get.js';
import { indicatorsMedians } from '../../../operations/indicators/indicators-medians.js';
import { indicatorsSeries } from '../../../operations/indicators/indicators-series.js';
import { municipalitiesGet } from '../../../operations/municipalities/municipalities-get.js';
import { municipalitiesIndicators } from '../../../operations/municipalities/municipalities-indicators.js';
import { procurementAnnouncements } from '../../../operations/procurement/procurement-announcements.js';
import { procurementContracts } from '../../../operations/procurement/procurement-contracts.js';
import { procurementEntityProfile } from '../../../operations/procurement/procurement-entity-profile.js';
import { procurementEntityRedFlags } from '../../../operations/procurement/procurement-entity-red-flags.js';
import { MAX_MUNICIPALITIES } from '../../../operations/shared/municipality-filters.js';
import { signalsList } from '../../../operations/signals/signals-list.js';
import type { ArgumentKind, PROMPT_LANGUAGES } from '../completion/argument-values.js';

export type Language = (typeof PROMPT_LANGUAGES)[number];

export interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
  readonly kind: ArgumentKind;
  /** A comma-separated list of values of its kind (completion completes the last). */
  readonly list?: true;
}

/** One read a prompt embeds: an operation and its (typed) input. */
export interface PromptRead {
  readonly operation: AnyOperation;
  readonly input: Record<string, unknown>;
}

export interface PromptDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** Every operation it may read: a key that may not call one of them does not see the prompt. */
  readonly operations: readonly AnyOperation[];
  /** The reads it embeds; throws a PromptArgumentError for an argument that names nothing. */
  reads(args: Readonly<Record<string, string>>, reference: ReferenceData): PromptRead[];
  /** The request in each language, the arguments filled in. */
  readonly text: Readonly<Record<Language, (args: Readonly<Record<string, string>>) => string>>;
}

/** An argument that names nothing (an unknown municipality): -32602 naming it. */
export class PromptArgumentError extends Error {}

function municipalityOf(reference: ReferenceData, ref: string) {
  const found = reference.municipality(ref);
  if (found === undefined) throw new PromptArgumentError(`Unknown municipality "${ref}".`);
  return found;
}

/** A comma-separated argument's items, trimmed, without empty ones. */
export function listItems(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

const PERIOD = 'as YYYY-MM-DD, inclusive; optional';

/**
 * The indicators a profile sets against the medians when none are named (those the catalogue has): each is one
 * more read, so a few headline ones, not the whole catalogue.
 */
const PROFILE_INDICATORS = ['population', 'unemployment_rate', 'purchasing_power_index'];
const MAX_PROFILE_INDICATORS = 5;

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'profile_municipality',
    title: 'Profile a municipality',
    description:
      "A municipality's profile: its indicators against the national and district medians, its council's " +
      'procurement and its signals. Embeds the data it needs.',
    arguments: [
      { name: 'municipality', description: 'Code, slug or name.', required: true, kind: 'municipality' },
      {
        name: 'indicators',
        description:
          `Indicator keys to set against the national and district medians, separated by commas (up to ` +
          `${MAX_PROFILE_INDICATORS}; default ${PROFILE_INDICATORS.join(', ')}).`,
        required: false,
        kind: 'indicator',
        list: true,
      },
    ],
    operations: [municipalitiesGet, municipalitiesIndicators, indicatorsMedians, procurementEntityProfile, signalsList],
    reads(args, reference) {
      const m = municipalityOf(reference, args.municipality);
      const keys = args.indicators
        ? listItems(args.indicators)
        : PROFILE_INDICATORS.filter((key) => reference.indicator(key) !== undefined);
      if (keys.length > MAX_PROFILE_INDICATORS) {
        throw new PromptArgumentError(`At most ${MAX_PROFILE_INDICATORS} indicators, not ${keys.length}.`);
      }
      return [
        { operation: municipalitiesGet, input: { code: m.code } },
        { operation: municipalitiesIndicators, input: { code: m.code } },
        ...keys.map((key) => ({ operation: indicatorsMedians, input: { key, district: m.district } })),
        { operation: procurementEntityProfile, input: { nif: m.nif } },
        { operation: signalsList, input: { municipality: [m.code], limit: MAX_LIMIT } },
      ];
    },
    text: {
      en: (a) =>
        `Write a profile of the Portuguese municipality ${a.municipality} from the data embedded below. ` +
        'Compare each indicator with the national and district medians, say where it stands out, summarise the ' +
        "council's procurement (what it buys, from whom, how much) and the signals raised, and name every figure's " +
        'reference date. Say what the data does not show.',
      pt: (a) =>
        `Escreve um perfil do município de ${a.municipality} a partir dos dados abaixo. Compara cada indicador ` +
        'com as medianas nacional e distrital, diz onde se destaca, resume a contratação pública da câmara (o que ' +
        'compra, a quem, quanto) e os sinais levantados, e indica a data de referência de cada número. Diz o que ' +
        'os dados não mostram.',
    },
  },
  {
    name: 'compare_municipalities',
    title: 'Compare municipalities on an indicator',
    description: "Several municipalities side by side on one indicator: its definition and each one's series.",
    arguments: [
      { name: 'indicator', description: 'Indicator key (e.g. population).', required: true, kind: 'indicator' },
      {
        name: 'municipalities',
        description: `Codes, slugs or names, separated by commas (2 to ${MAX_MUNICIPALITIES}).`,
        required: true,
        kind: 'municipality',
        list: true,
      },
    ],
    operations: [indicatorsGet, indicatorsSeries, indicatorsMedians],
    reads(args, reference) {
      const codes = listItems(args.municipalities).map((ref) => municipalityOf(reference, ref).code);
      return [
        { operation: indicatorsGet, input: { key: args.indicator } },
        { operation: indicatorsSeries, input: { key: args.indicator, municipality: codes, limit: MAX_LIMIT } },
        { operation: indicatorsMedians, input: { key: args.indicator } },
      ];
    },
    text: {
      en: (a) =>
        `Compare the municipalities ${a.municipalities} on the indicator ${a.indicator}, from the data embedded ` +
        'below: the latest value of each, how each changed over the years, and where each stands against the ' +
        'national median. Mind the unit and the direction (whether higher is better).',
      pt: (a) =>
        `Compara os municípios ${a.municipalities} no indicador ${a.indicator}, a partir dos dados abaixo: o ` +
        'valor mais recente de cada um, como evoluiu ao longo dos anos e onde fica face à mediana nacional. ' +
        'Atenção à unidade e ao sentido (se mais é melhor).',
    },
  },
  {
    name: 'review_buyer_procurement',
    title: "Review a buyer's procurement for a period",
    description:
      "A buyer's contracts in a period with the integrity checks run on them (flags are indicators for a closer " +
      'look, never accusations).',
    arguments: [
      {
        name: 'buyer',
        description: 'Tax number (NIF) of the buyer; a name completes to it.',
        required: true,
        kind: 'entity',
      },
      { name: 'from', description: `First publication date (${PERIOD}).`, required: false, kind: 'none' },
      { name: 'to', description: `Last publication date (${PERIOD}).`, required: false, kind: 'none' },
    ],
    operations: [procurementEntityProfile, procurementEntityRedFlags, procurementContracts],
    reads(args) {
      const period = { ...(args.from ? { from: args.from } : {}), ...(args.to ? { to: args.to } : {}) };
      return [
        { operation: procurementEntityProfile, input: { nif: args.buyer } },
        { operation: procurementEntityRedFlags, input: { nif: args.buyer, ...period } },
        { operation: procurementContracts, input: { buyer: args.buyer, ...period, limit: MAX_LIMIT } },
      ];
    },
    text: {
      en: (a) =>
        `Review the public procurement of the buyer ${a.buyer}${periodText(a, 'en')} from the data embedded ` +
        'below: what it bought, from which suppliers, by which procedures, and the integrity flags raised, ' +
        'contract by contract. A flag is an indicator for a closer look, never an accusation: say so.',
      pt: (a) =>
        `Analisa a contratação pública da entidade ${a.buyer}${periodText(a, 'pt')} a partir dos dados abaixo: ` +
        'o que comprou, a que fornecedores, por que procedimentos, e os alertas de integridade levantados, ' +
        'contrato a contrato. Um alerta é um indício para olhar com atenção, nunca uma acusação: di-lo.',
    },
  },
  {
    name: 'find_open_tenders',
    title: 'Find open tenders for a CPV area and a district',
    description: 'The calls for tenders still open in a district whose CPV codes start with the given digits.',
    arguments: [
      {
        name: 'cpv',
        description: 'CPV code or its first digits (e.g. 45); words complete to codes.',
        required: true,
        kind: 'cpv',
      },
      { name: 'district', description: 'District (e.g. Porto).', required: true, kind: 'district' },
    ],
    operations: [procurementAnnouncements],
    reads(args) {
      // A whole code (45000000) is its significant digits (45): the filter takes a prefix; a division keeps two.
      const cpv = args.cpv.slice(0, Math.max(2, args.cpv.replace(/0+$/, '').length));
      return [{ operation: procurementAnnouncements, input: { cpv, district: args.district, open_only: true } }];
    },
    text: {
      en: (a) =>
        `List the calls for tenders still open in the district of ${a.district} for CPV ${a.cpv}, from the data ` +
        'embedded below: for each, the buyer, the object, the base price and the deadline, the closest deadline ' +
        'first.',
      pt: (a) =>
        `Lista os concursos ainda abertos no distrito de ${a.district} para o CPV ${a.cpv}, a partir dos dados ` +
        'abaixo: para cada um, a entidade, o objeto, o preço base e o prazo, o prazo mais próximo primeiro.',
    },
  },
];

function periodText(args: Readonly<Record<string, string>>, language: Language): string {
  const { from, to } = args;
  if (!from && !to) return '';
  if (language === 'pt') return ` ${from ? `de ${from}` : ''}${from && to ? ' ' : ''}${to ? `até ${to}` : ''}`;
  return ` ${from ? `from ${from}` : ''}${from && to ? ' ' : ''}${to ? `to ${to}` : ''}`;
}
