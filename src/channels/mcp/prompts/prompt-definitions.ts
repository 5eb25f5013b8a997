/**
 * The prompts (docs/mcp.md, Prompts): ready analyses in Portuguese and in English. Each checks its arguments and
 * names the reads it embeds (an operation and its input, from the arguments), so that a client without tools gets the
 * data with the prompt, and its request, the arguments resolved to the names they stand for.
 */
import type { AnyOperation } from '../../../core/operation.js';
import type { ReferenceData } from '../../../core/reference.js';
import { MAX_LIMIT } from '../../../core/schemas.js';
import { isDate } from '../../../lib/calendar.js';
import { indicatorsGet } from '../../../operations/indicators/indicators-get.js';
import { indicatorsMedians } from '../../../operations/indicators/indicators-medians.js';
import { indicatorsSeries } from '../../../operations/indicators/indicators-series.js';
import { municipalitiesGet } from '../../../operations/municipalities/municipalities-get.js';
import { municipalitiesIndicators } from '../../../operations/municipalities/municipalities-indicators.js';
import { CpvPrefix, Nif } from '../../../operations/procurement/inputs.js';
import { procurementAnnouncements } from '../../../operations/procurement/procurement-announcements.js';
import { procurementContracts } from '../../../operations/procurement/procurement-contracts.js';
import { procurementEntityProfile } from '../../../operations/procurement/procurement-entity-profile.js';
import { procurementEntityRedFlags } from '../../../operations/procurement/procurement-entity-red-flags.js';
import { MAX_MUNICIPALITIES } from '../../../operations/shared/municipality-filters.js';
import { signalsList } from '../../../operations/signals/signals-list.js';
import type { ArgumentKind, PROMPT_LANGUAGES } from '../completion/argument-values.js';
import { inDistrict, listed } from './place-phrases.js';

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
  /** The most pages it embeds, following `next_cursor` (each page is one read); default 1. */
  readonly pages?: number;
  /**
   * What the embedded pages of a list hold when more exist ("the 25 newest signals"), for the sentence that tells
   * the model so (data-prompts.ts).
   */
  readonly partial?: Readonly<Record<Language, (count: number) => string>>;
}

/** The answers embedded: for each read, the JSON of each of its pages, parsed, in order. */
export type PromptAnswers = readonly (readonly unknown[])[];

export interface PromptPlan {
  readonly reads: readonly PromptRead[];
  /** The request in a language, its arguments resolved to names (a buyer's from its embedded profile). */
  request(language: Language, answers: PromptAnswers): string;
}

export interface PromptDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  /** Every operation it may read: a key that may not call one of them does not see the prompt. */
  readonly operations: readonly AnyOperation[];
  /**
   * The reads it embeds and its request, from the arguments. Everything an argument can be checked against without
   * reading (the reference data, a date's form) is checked here, so that a refused argument reads nothing; a bad
   * one throws a PromptArgumentError.
   */
  plan(args: Readonly<Record<string, string>>, reference: ReferenceData): PromptPlan;
}

/** An argument that names nothing (an unknown municipality) or is malformed: -32602 naming it. */
export class PromptArgumentError extends Error {}

/** A municipality and an indicator as the reference data holds them (a channel reads records through the core). */
type Municipality = NonNullable<ReturnType<ReferenceData['municipality']>>;
type Indicator = NonNullable<ReturnType<ReferenceData['indicator']>>;

function municipalityOf(reference: ReferenceData, ref: string): Municipality {
  const found = reference.municipality(ref);
  if (found === undefined) throw new PromptArgumentError(`Unknown municipality "${ref}".`);
  return found;
}

function indicatorOf(reference: ReferenceData, key: string): Indicator {
  const found = reference.indicator(key);
  if (found === undefined) {
    throw new PromptArgumentError(`Unknown indicator "${key}"; completion/complete lists the keys.`);
  }
  return found;
}

/**
 * The district or autonomous region as the data names it ("porto" → "Porto", "Madeira" → "Região Autónoma da
 * Madeira"), read as every district parameter reads it (ReferenceData.district).
 */
function districtOf(reference: ReferenceData, name: string): string {
  const found = reference.district(name);
  if (found === undefined) {
    throw new PromptArgumentError(`Unknown district "${name}"; the districts: ${reference.districts.join(', ')}.`);
  }
  return found;
}

/** `from` and `to` as the reads take them: each a calendar day, `from` not after `to`. */
function periodOf(args: Readonly<Record<string, string>>): { from?: string; to?: string } {
  const period: { from?: string; to?: string } = {};
  for (const name of ['from', 'to'] as const) {
    const value = args[name]?.trim();
    if (!value) continue;
    if (!isDate(value)) throw new PromptArgumentError(`Argument ${name} must be a date (YYYY-MM-DD), not "${value}".`);
    period[name] = value;
  }
  if (period.from && period.to && period.from > period.to) {
    throw new PromptArgumentError(`Argument from (${period.from}) is after to (${period.to}).`);
  }
  return period;
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
/** The newest signals a profile embeds: a page of 200 is some 200 KB of context for a summary. */
const PROFILE_SIGNALS = 25;
/**
 * The most pages of a comparison's series (200 points each): 50 municipalities' yearly series over 20 years fit;
 * a monthly one fits for about 16 municipalities, and the request says when points are left out.
 */
export const MAX_SERIES_PAGES = 10;

const NIF = new RegExp(String(Nif.pattern));
const CPV = new RegExp(String(CpvPrefix.pattern));

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'profile_municipality',
    title: 'Profile a municipality',
    description:
      "A municipality's profile: its indicators against the national and district medians, its council's " +
      'procurement and its newest signals. Embeds the data it needs.',
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
    plan(args, reference) {
      const m = municipalityOf(reference, args.municipality);
      const keys = args.indicators
        ? [...new Set(listItems(args.indicators))]
        : PROFILE_INDICATORS.filter((key) => reference.indicator(key) !== undefined);
      if (keys.length > MAX_PROFILE_INDICATORS) {
        throw new PromptArgumentError(`At most ${MAX_PROFILE_INDICATORS} indicators, not ${keys.length}.`);
      }
      for (const key of keys) indicatorOf(reference, key);
      const signals = {
        en: (n: number) => `the ${n} newest signals`,
        pt: (n: number) => `os ${n} sinais mais recentes`,
      };
      return {
        reads: [
          { operation: municipalitiesGet, input: { code: m.code } },
          { operation: municipalitiesIndicators, input: { code: m.code } },
          ...keys.map((key) => ({ operation: indicatorsMedians, input: { key, district: m.district } })),
          { operation: procurementEntityProfile, input: { nif: m.nif } },
          { operation: signalsList, input: { municipality: [m.code], limit: PROFILE_SIGNALS }, partial: signals },
        ],
        request: (language) =>
          language === 'pt'
            ? `Escreve um perfil de um município português — ${m.name}, ${inDistrict(m.district, 'pt')} — a ` +
              'partir dos dados abaixo. Compara cada indicador com as medianas nacional e distrital, diz onde se ' +
              'destaca, resume a contratação pública da câmara (o que compra, a quem, quanto) e os sinais ' +
              'levantados, e indica a data de referência de cada número. Diz o que os dados não mostram.'
            : `Write a profile of ${m.name}, a Portuguese municipality ${inDistrict(m.district, 'en')}, from the ` +
              'data embedded below. Compare each indicator with the national and district medians, say where it ' +
              "stands out, summarise the council's procurement (what it buys, from whom, how much) and the " +
              "signals raised, and name every figure's reference date. Say what the data does not show.",
      };
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
    plan(args, reference) {
      const indicator = indicatorOf(reference, args.indicator);
      const named = listItems(args.municipalities).map((ref) => municipalityOf(reference, ref));
      const chosen = [...new Map(named.map((m) => [m.code, m])).values()];
      if (chosen.length < 2 || chosen.length > MAX_MUNICIPALITIES) {
        throw new PromptArgumentError(
          `Name 2 to ${MAX_MUNICIPALITIES} different municipalities, not ${chosen.length}.`,
        );
      }
      const key = indicator.key;
      const points = {
        en: (n: number) => `the first ${n} points of the series (municipality by municipality, by code)`,
        pt: (n: number) => `os primeiros ${n} pontos das séries (município a município, por código)`,
      };
      const names = chosen.map((m) => m.name);
      return {
        reads: [
          { operation: indicatorsGet, input: { key } },
          {
            operation: indicatorsSeries,
            input: { key, municipality: chosen.map((m) => m.code), limit: MAX_LIMIT },
            pages: MAX_SERIES_PAGES,
            partial: points,
          },
          { operation: indicatorsMedians, input: { key } },
        ],
        request: (language) =>
          language === 'pt'
            ? `Compara os municípios ${listed(names, 'pt')} no indicador ${indicator.name_pt} (${key}), a partir ` +
              'dos dados abaixo: o valor mais recente de cada um, como evoluiu ao longo dos anos e onde fica face ' +
              'à mediana nacional. Atenção à unidade e ao sentido (se mais é melhor).'
            : `Compare the municipalities ${listed(names, 'en')} on the indicator ${indicator.name} (${key}), from ` +
              'the data embedded below: the latest value of each, how each changed over the years, and where each ' +
              'stands against the national median. Mind the unit and the direction (whether higher is better).',
      };
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
    plan(args) {
      const nif = args.buyer.trim();
      if (!NIF.test(nif)) {
        throw new PromptArgumentError(
          `Argument buyer must be a tax number (9 digits, or a foreign one as the portal gives it), not ` +
            `"${args.buyer}"; completion turns a name into one.`,
        );
      }
      const period = periodOf(args);
      const contracts = {
        en: (n: number) => `the ${n} newest contracts`,
        pt: (n: number) => `os ${n} contratos mais recentes`,
      };
      return {
        reads: [
          { operation: procurementEntityProfile, input: { nif } },
          { operation: procurementEntityRedFlags, input: { nif, ...period } },
          { operation: procurementContracts, input: { buyer: nif, ...period, limit: MAX_LIMIT }, partial: contracts },
        ],
        request(language, answers) {
          const name = (answers[0]?.[0] as { name?: unknown } | undefined)?.name;
          const buyer = typeof name === 'string' ? `${name} (NIF ${nif})` : `NIF ${nif}`;
          return language === 'pt'
            ? `Analisa a contratação pública da entidade ${buyer}${periodText(period, 'pt')} a partir dos dados ` +
                'abaixo: o que comprou, a que fornecedores, por que procedimentos, e os alertas de integridade ' +
                'levantados, contrato a contrato. Um alerta é um indício para olhar com atenção, nunca uma ' +
                'acusação: di-lo.'
            : `Review the public procurement of the buyer ${buyer}${periodText(period, 'en')} from the data ` +
                'embedded below: what it bought, from which suppliers, by which procedures, and the integrity ' +
                'flags raised, contract by contract. A flag is an indicator for a closer look, never an ' +
                'accusation: say so.';
        },
      };
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
    plan(args, reference) {
      const code = args.cpv.trim();
      if (!CPV.test(code)) {
        throw new PromptArgumentError(
          `Argument cpv must be a CPV code or its first digits, not "${args.cpv}"; completion turns words into codes.`,
        );
      }
      // A whole code (45000000) is its significant digits (45): the filter takes a prefix; a division keeps two.
      const cpv = code.slice(0, Math.max(2, code.replace(/0+$/, '').length));
      const district = districtOf(reference, args.district);
      const calls = {
        en: (n: number) => `the ${n} calls closing soonest`,
        pt: (n: number) => `os ${n} concursos que fecham mais cedo`,
      };
      return {
        reads: [
          {
            operation: procurementAnnouncements,
            input: { cpv, district, open_only: true },
            partial: calls,
          },
        ],
        request: (language) =>
          language === 'pt'
            ? `Lista os concursos ainda abertos ${inDistrict(district, 'pt')} cujo código CPV começa por ${cpv}, ` +
              'a partir dos dados abaixo: para cada um, a entidade, o objeto, o preço base e o prazo, o prazo mais ' +
              'próximo primeiro.'
            : `List the calls for tenders still open ${inDistrict(district, 'en')} whose CPV code starts with ` +
              `${cpv}, from the data embedded below: for each, the buyer, the object, the base price and the ` +
              'deadline, the closest deadline first.',
      };
    },
  },
];

function periodText(period: { from?: string; to?: string }, language: Language): string {
  const { from, to } = period;
  if (!from && !to) return '';
  if (language === 'pt') return ` ${from ? `de ${from}` : ''}${from && to ? ' ' : ''}${to ? `até ${to}` : ''}`;
  return ` ${from ? `from ${from}` : ''}${from && to ? ' ' : ''}${to ? `to ${to}` : ''}`;
}
