/** The contract cost more in the end than signed: its effective price, or its last amendment, over a threshold. */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { IntegrityCheck } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { percentSaid } from '../said.js';

export const COST_OVERRUN: IntegrityType = {
  key: 'cost_overrun',
  code: 'PT-COST-OVERRUN',
  version: 1,
  label_pt: 'Derrapagem de custos',
  label_en: 'Cost overrun',
  measures_en:
    'How much the final cost — the effective price the portal reports, or the price after the latest amendment, ' +
    'whichever is higher — exceeds the contract price, as a share of it.',
  measures_pt:
    'Quanto o custo final — o preço efetivo comunicado ao portal ou o preço após a última modificação, o ' +
    'que for maior — excede o preço contratual, em proporção deste.',
  why_it_matters_pt:
    'Derrapagens de custo grandes podem indicar um caderno de encargos mal preparado, trabalhos a mais ou ' +
    'uma proposta baixa para ganhar e recuperar depois.',
  why_it_matters_en:
    'Large cost overruns can point to a poorly prepared specification, extra works, or a low bid made to ' +
    'win and recover later.',
  next_step_pt:
    'Ler as modificações contratuais publicadas e os seus fundamentos, e comparar o preço efetivo com o ' +
    'contratual.',
  reads_beyond_record: false,
  fields: ['price_eur', 'effective_price_eur', 'amendments'],
  thresholds: [
    {
      key: 'overrun_ratio',
      value: 0.2,
      unit: 'ratio',
      source: "munidata's default, as DIGIWHIST's cost-overrun indicator compares final and contract value",
    },
  ],
  legal_basis: null,
  caveat_en:
    'Amendments can be lawful (CCP art. 311.º and following): an overrun is a reason to read them, not a finding.',
  caveat_pt:
    'As modificações podem ser lícitas (artigos 311.º e seguintes do CCP): um desvio é motivo para as ler, não uma ' +
    'conclusão.',
};

const NO_PRICE = { en: 'The record gives no contract price.', pt: 'O registo não indica o preço contratual.' };

export function checkCostOverrun(c: ContractDetailRecord): Finding {
  const amended = c.amendments.map((a) => a.new_price_eur).filter((p): p is number => p !== null);
  const finals = [c.effective_price_eur, amended.at(-1) ?? null].filter((p): p is number => p !== null);
  const values = {
    price_eur: c.price_eur,
    effective_price_eur: c.effective_price_eur,
    amended_price_eur: amended.at(-1) ?? null,
    overrun_ratio: null,
  };
  if (c.price_eur === null || c.price_eur <= 0) return finding('not_assessable', NO_PRICE, values);
  if (finals.length === 0) {
    const reason = {
      en:
        'The record gives no effective price and no amendment with a price: the final cost is unknown ' +
        '(the contract may still be running).',
      pt:
        'O registo não indica preço efetivo nem modificação com preço: o custo final é desconhecido ' +
        '(o contrato pode estar ainda em execução).',
    };
    return finding('not_assessable', reason, values);
  }
  const ratio = Math.round((Math.max(...finals) / c.price_eur - 1) * 10_000) / 10_000;
  const compared = { ...values, overrun_ratio: ratio };
  const share = percentSaid(ratio);
  return ratio > threshold(COST_OVERRUN, 'overrun_ratio')
    ? finding(
        'flagged',
        {
          en: `The final cost exceeds the contract price by ${share.en}.`,
          pt: `O custo final excede o preço contratual em ${share.pt}.`,
        },
        compared,
      )
    : finding(
        'not_flagged',
        {
          en: `The final cost differs from the contract price by ${share.en}.`,
          pt: `O custo final difere do preço contratual em ${share.pt}.`,
        },
        compared,
      );
}

export const COST_OVERRUN_CHECK: IntegrityCheck = { type: COST_OVERRUN, assess: checkCostOverrun };
