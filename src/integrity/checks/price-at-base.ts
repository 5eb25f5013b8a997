/** The contract price reaches the procedure's base price: no price competition showed in the result. */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { IntegrityCheck } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { percentSaid } from '../said.js';

export const PRICE_AT_BASE: IntegrityType = {
  key: 'price_at_base_price',
  code: 'PT-PRICE-BASE',
  version: 1,
  label_pt: 'Preço igual ou superior ao preço base',
  label_en: 'Price at or above the base price',
  measures_en:
    "The contract price divided by the procedure's base price: at 1 the award brought no saving on the " +
    'maximum the buyer set; above 1 it exceeds that maximum.',
  measures_pt:
    'O preço contratual dividido pelo preço base do procedimento: em 1, a adjudicação não trouxe poupança ' +
    'face ao máximo fixado pela entidade; acima de 1, excede esse máximo.',
  why_it_matters_pt:
    'O preço base é o máximo que a entidade se dispõe a pagar (CCP, art. 47.º, n.º 1); um preço igual ou ' +
    'superior sugere pouca pressão concorrencial, e acima dele a proposta deveria ter sido excluída salvo ' +
    'as exceções da lei.',
  why_it_matters_en:
    'The base price is the most the buyer is willing to pay (CCP art. 47.º n.º 1); a price at or above it ' +
    'suggests little competitive pressure, and above it the bid should have been excluded save for the ' +
    "law's exceptions.",
  next_step_pt:
    'Confirmar o preço base e o preço contratual nas peças do procedimento e no contrato, e verificar se ' +
    'houve fundamentação para um preço acima do preço base.',
  reads_beyond_record: false,
  fields: ['price_eur', 'base_price_eur'],
  thresholds: [{ key: 'price_to_base_ratio', value: 1, unit: 'ratio', source: 'CCP art. 47.º n.º 1' }],
  legal_basis: {
    reference: 'CCP art. 47.º n.º 1; art. 70.º n.º 2 d)',
    reference_pt: 'CCP art. 47.º n.º 1; art. 70.º n.º 2 d)',
    text_pt:
      'O preço base é o preço máximo que a entidade adjudicante se dispõe a pagar; são excluídas as propostas ' +
      'cujo preço contratual seja superior ao preço base.',
    text_en:
      'The base price is the most the contracting authority is willing to pay; tenders whose price exceeds it are ' +
      'excluded.',
  },
  caveat_en: 'A contract whose record gives no base price (direct awards often have none) is not assessable.',
  caveat_pt:
    'Um contrato cujo registo não indica o preço base (os ajustes diretos muitas vezes não o têm) não é avaliável.',
};

export function checkPriceAtBase(c: ContractDetailRecord): Finding {
  const values = { price_eur: c.price_eur, base_price_eur: c.base_price_eur, price_to_base_ratio: null };
  if (c.price_eur === null || c.base_price_eur === null || c.base_price_eur <= 0) {
    const missing =
      c.price_eur === null
        ? { en: 'contract price', pt: 'o preço contratual' }
        : { en: 'base price', pt: 'o preço base' };
    const reason = { en: `The record gives no ${missing.en}.`, pt: `O registo não indica ${missing.pt}.` };
    return finding('not_assessable', reason, values);
  }
  const ratio = Math.round((c.price_eur / c.base_price_eur) * 10_000) / 10_000;
  const compared = { ...values, price_to_base_ratio: ratio };
  if (ratio > threshold(PRICE_AT_BASE, 'price_to_base_ratio')) {
    const reason = {
      en: 'The contract price exceeds the base price, the most the buyer said it would pay.',
      pt: 'O preço contratual excede o preço base, o máximo que a entidade disse estar disposta a pagar.',
    };
    return finding('flagged', reason, compared);
  }
  if (ratio === threshold(PRICE_AT_BASE, 'price_to_base_ratio')) {
    const reason = { en: 'The contract price equals the base price.', pt: 'O preço contratual é igual ao preço base.' };
    return finding('flagged', reason, compared);
  }
  const saving = percentSaid(1 - ratio);
  const reason = {
    en: `The price is ${saving.en} under the base price.`,
    pt: `O preço fica ${saving.pt} abaixo do preço base.`,
  };
  return finding('not_flagged', reason, compared);
}

export const PRICE_AT_BASE_CHECK: IntegrityCheck = { type: PRICE_AT_BASE, assess: checkPriceAtBase };
