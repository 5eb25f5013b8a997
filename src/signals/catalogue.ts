/**
 * The signal families and types we detect or accept from outside detectors, with their labels. Served by
 * `signal_families` and `signal_types`, read by the detectors (a detector only writes types listed here) and
 * by the signal importer (an imported signal must name one of them). The `integrity` family's types are the
 * integrity checks' (src/integrity/, docs/integrity.md), each with its methodology: one catalogue, not two.
 */
import { INTEGRITY_TYPES } from '../integrity/assess-contract.js';
import type { IntegrityType } from '../integrity/methodology.js';

export interface SignalFamily {
  readonly key: string;
  readonly label_pt: string;
  readonly label_en: string;
  readonly description_pt: string;
  readonly description_en: string;
}

export interface SignalType {
  readonly key: string;
  readonly family: string;
  readonly label_pt: string;
  readonly label_en: string;
  readonly description_pt: string;
  readonly description_en: string;
  /** How an integrity type is computed: its code, version, fields, thresholds and legal basis. */
  readonly methodology?: IntegrityType;
}

export const INTEGRITY = 'integrity';
/**
 * What every integrity signal's Portuguese summary says of itself, and what an alert's snippet of one keeps whatever
 * it cuts (docs/alerts.md, "The matcher").
 */
export const INTEGRITY_HEDGE_PT = 'É um indício para olhar com mais atenção, não uma acusação';

export const SIGNAL_FAMILIES: readonly SignalFamily[] = Object.freeze([
  {
    key: 'procurement',
    label_pt: 'Contratação pública',
    label_en: 'Public procurement',
    description_pt:
      'Concursos abertos, adjudicações, ajustes diretos de valor elevado e modificações de contratos dos municípios.',
    description_en: 'Open tenders, awards, high-value direct awards and contract amendments of municipalities.',
  },
  {
    key: 'indicators',
    label_pt: 'Indicadores municipais',
    label_en: 'Municipal indicators',
    description_pt: 'Variações invulgares e máximos ou mínimos históricos nas séries de indicadores de um município.',
    description_en: 'Unusual changes and record highs or lows in a municipality’s indicator series.',
  },
  {
    key: INTEGRITY,
    label_pt: 'Integridade na contratação',
    label_en: 'Procurement integrity',
    description_pt:
      'Indicadores de risco num contrato público (prazos curtos, proposta única, concentração, ajustes diretos ' +
      'repetidos, possível fracionamento…), cada um com o seu método e base legal: um indício para olhar com mais ' +
      'atenção, nunca uma acusação.',
    description_en:
      'Risk indicators on a public contract (short periods, single bids, concentration, repeated direct awards, ' +
      'possible splitting…), each with its method and legal basis: an indicator for a closer look, never an ' +
      'accusation.',
  },
]);

export const SIGNAL_TYPES: readonly SignalType[] = Object.freeze([
  {
    key: 'tender_open',
    family: 'procurement',
    label_pt: 'Concurso aberto',
    label_en: 'Open tender',
    description_pt: 'Um anúncio de procedimento com prazo de apresentação de propostas ainda a decorrer.',
    description_en: 'A procurement notice whose proposal deadline has not passed yet.',
  },
  {
    key: 'deadline_closing',
    family: 'procurement',
    label_pt: 'Prazo a terminar',
    label_en: 'Deadline closing',
    description_pt: 'Um concurso aberto cujo prazo de propostas termina dentro de 14 dias.',
    description_en: 'An open tender whose proposal deadline is 14 days away or less.',
  },
  {
    key: 'contract_awarded',
    family: 'procurement',
    label_pt: 'Contrato adjudicado',
    label_en: 'Contract awarded',
    description_pt: 'Um contrato de valor médio ou superior (75 000 € ou mais) publicado no portal.',
    description_en: 'A contract of medium value or more (75 000 € or more) published on the portal.',
  },
  {
    key: 'direct_award_high_value',
    family: 'procurement',
    label_pt: 'Ajuste direto de valor elevado',
    label_en: 'High-value direct award',
    description_pt:
      'Um ajuste direto acima do limite do regime geral (20 000 € em bens e serviços, 30 000 € em empreitadas), ' +
      'o que pressupõe um fundamento material ou excecional.',
    description_en:
      'A direct award above the general ceiling (20 000 € for goods and services, 30 000 € for works), which ' +
      'requires a material or exceptional ground.',
  },
  {
    key: 'contract_amended',
    family: 'procurement',
    label_pt: 'Contrato modificado',
    label_en: 'Contract amended',
    description_pt: 'Uma modificação de um contrato que altera o seu preço.',
    description_en: 'An amendment that changes a contract’s price.',
  },
  {
    key: 'indicator_jump',
    family: 'indicators',
    label_pt: 'Variação invulgar de indicador',
    label_en: 'Indicator jump',
    description_pt: 'Uma variação de um período para o seguinte muito maior do que a habitual entre os municípios.',
    description_en: 'A change from one period to the next far larger than usual among municipalities.',
  },
  {
    key: 'indicator_record',
    family: 'indicators',
    label_pt: 'Máximo ou mínimo histórico',
    label_en: 'Indicator record',
    description_pt: 'O valor mais alto ou mais baixo da série do município (com pelo menos cinco períodos).',
    description_en: 'The highest or lowest value of the municipality’s series (of at least five periods).',
  },
  ...INTEGRITY_TYPES.map(
    (t): SignalType => ({
      key: t.key,
      family: INTEGRITY,
      label_pt: t.label_pt,
      label_en: t.label_en,
      description_pt: t.measures_pt,
      description_en: t.measures_en,
      methodology: t,
    }),
  ),
]);

const TYPES_BY_KEY = new Map(SIGNAL_TYPES.map((t) => [t.key, t]));
const FAMILY_KEYS = new Set(SIGNAL_FAMILIES.map((f) => f.key));

export function findSignalType(key: string): SignalType | undefined {
  return TYPES_BY_KEY.get(key);
}

export function isSignalFamily(key: string): boolean {
  return FAMILY_KEYS.has(key);
}

export const SIGNAL_TYPE_KEYS = SIGNAL_TYPES.map((t) => t.key);
export const SIGNAL_FAMILY_KEYS = SIGNAL_FAMILIES.map((f) => f.key);
