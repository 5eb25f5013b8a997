/**
 * Procedure types as BASE publishes them, with their OCDS method (the same mapping as the BASE importer's
 * `ocdsMethod`, src/ingest/base/procedure.ts), the CCP's value thresholds and the legal basis each cites.
 *
 * Thresholds (CCP as amended by Lei n.º 30/2021; euros without VAT): ajuste direto in the general regime up to
 * 20 000 (goods and services) or 30 000 (works); consulta prévia up to 75 000 / 150 000; concurso público without
 * publication in the EU Official Journal up to the EU thresholds (221 000 for goods and services of local
 * authorities, 5 538 000 for works). Above the ajuste-direto limits a direct award needs a material criterion
 * (art. 24.º: urgency, exclusive rights, artistic services…), which the generator uses for a small share.
 */
import type { OcdsMethod } from '../../store/procurement-records.js';

export type ContractKind = 'works' | 'services' | 'goods' | 'lease';

export const CONTRACT_TYPE: Record<ContractKind, string> = {
  works: 'Empreitadas de obras públicas',
  services: 'Aquisição de serviços',
  goods: 'Aquisição de bens móveis',
  lease: 'Locação de bens móveis',
};

export type ProcedureKey =
  | 'ad'
  | 'cp'
  | 'cps'
  | 'cpub'
  | 'cpub_urgent'
  | 'limited'
  | 'negotiation'
  | 'fa258'
  | 'fa259'
  | 'excluded';

export interface Procedure {
  key: ProcedureKey;
  label: string;
  method: OcdsMethod;
  /** Whether the procedure starts with a public notice (an announcement). */
  announced: boolean;
  /** Typical price relative to the category's median, and the spread (σ of the log). */
  factor: number;
  sigma: number;
  /** Share of contracts drawn from the Pareto tail. */
  tail: number;
}

export const PROCEDURES: Record<ProcedureKey, Procedure> = {
  ad: {
    key: 'ad',
    label: 'Ajuste Direto Regime Geral',
    method: 'direct',
    announced: false,
    factor: 0.1,
    sigma: 1.1,
    tail: 0,
  },
  cp: { key: 'cp', label: 'Consulta Prévia', method: 'limited', announced: false, factor: 0.42, sigma: 0.8, tail: 0 },
  cps: {
    key: 'cps',
    label: 'Consulta Prévia Simplificada',
    method: 'limited',
    announced: false,
    factor: 0.8,
    sigma: 0.9,
    tail: 0,
  },
  cpub: {
    key: 'cpub',
    label: 'Concurso público',
    method: 'open',
    announced: true,
    factor: 1.5,
    sigma: 1.1,
    tail: 0.07,
  },
  cpub_urgent: {
    key: 'cpub_urgent',
    label: 'Concurso público urgente',
    method: 'open',
    announced: true,
    factor: 1,
    sigma: 0.8,
    tail: 0,
  },
  limited: {
    key: 'limited',
    label: 'Concurso limitado por prévia qualificação',
    method: 'selective',
    announced: true,
    factor: 4,
    sigma: 1.0,
    tail: 0.1,
  },
  negotiation: {
    key: 'negotiation',
    label: 'Procedimento de negociação',
    method: 'selective',
    announced: true,
    factor: 3,
    sigma: 1.0,
    tail: 0.1,
  },
  fa258: {
    key: 'fa258',
    label: 'Ao abrigo de acordo-quadro (art.º 258.º)',
    method: 'direct',
    announced: false,
    factor: 0.5,
    sigma: 1.1,
    tail: 0.02,
  },
  fa259: {
    key: 'fa259',
    label: 'Ao abrigo de acordo-quadro (art.º 259.º)',
    method: 'selective',
    announced: false,
    factor: 0.9,
    sigma: 1.2,
    tail: 0.04,
  },
  excluded: {
    key: 'excluded',
    label: 'Contratação excluída II',
    method: 'direct',
    announced: false,
    factor: 0.4,
    sigma: 1.4,
    tail: 0.02,
  },
};

/** The usual mix of procedures by contract kind (shares by number of contracts). */
export const PROCEDURE_MIX: Record<ContractKind, Partial<Record<ProcedureKey, number>>> = {
  works: { ad: 40, cp: 22, cps: 4, cpub: 30, cpub_urgent: 1, limited: 0.5, fa258: 1, fa259: 1, excluded: 0.5 },
  services: {
    ad: 55,
    cp: 17,
    cps: 3,
    cpub: 14,
    cpub_urgent: 0.5,
    limited: 0.3,
    negotiation: 0.3,
    fa258: 3,
    fa259: 4.5,
    excluded: 2,
  },
  goods: { ad: 55, cp: 18, cps: 3, cpub: 12, cpub_urgent: 0.5, fa258: 4, fa259: 6.5, excluded: 1 },
  lease: { ad: 45, cp: 20, cpub: 20, fa258: 5, fa259: 10 },
};

/** Upper limits by value of the procedures that have one (works / other contracts). */
export function valueCap(procedure: ProcedureKey, kind: ContractKind): number | null {
  const works = kind === 'works';
  switch (procedure) {
    case 'ad':
      return works ? 30_000 : 20_000;
    case 'cp':
      return works ? 150_000 : 75_000;
    case 'cps':
      return works ? 5_538_000 : 221_000;
    default:
      return null;
  }
}

const CCP = 'do Código dos Contratos Públicos';

/** The legal basis a contract cites (`fundamentacao`), from its procedure, kind and price. */
export function legalBasis(
  procedure: ProcedureKey,
  kind: ContractKind,
  price: number,
  material: string | null,
): string {
  const works = kind === 'works';
  const article = (letter: string) =>
    works ? `Artigo 19.º, alínea ${letter}) ${CCP}` : `Artigo 20.º, n.º 1, alínea ${letter}) ${CCP}`;
  switch (procedure) {
    case 'ad':
      return material ?? article('d');
    case 'cp':
      return article('c');
    case 'cps':
      return 'Lei n.º 30/2021, de 21 de maio (medidas especiais de contratação pública)';
    case 'cpub':
      return article(price < (works ? 5_538_000 : 221_000) ? 'b' : 'a');
    case 'cpub_urgent':
      return `Artigo 155.º ${CCP}`;
    case 'limited':
      return article('a');
    case 'negotiation':
      return `Artigo 29.º, n.º 1 ${CCP}`;
    case 'fa258':
      return `Artigo 258.º ${CCP}`;
    case 'fa259':
      return `Artigo 259.º ${CCP}`;
    case 'excluded':
      return `Artigo 5.º ${CCP}`;
  }
}

/** Material criteria for direct awards above the general limits (art. 24.º). */
export const MATERIAL_CRITERIA = {
  urgency: `Artigo 24.º, n.º 1, alínea c) ${CCP}`,
  exclusive: `Artigo 24.º, n.º 1, alínea e) ${CCP}`,
  failed: `Artigo 24.º, n.º 1, alínea b) ${CCP}`,
};
