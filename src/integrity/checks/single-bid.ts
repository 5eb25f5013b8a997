/** R018, single bid: an open or restricted procedure that drew one competitor. */
import { withIndefinite } from '../../lib/english-articles.js';
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { IntegrityCheck } from '../check.js';
import type { IntegrityType } from '../methodology.js';

export const SINGLE_BID: IntegrityType = {
  key: 'single_bid',
  code: 'R018',
  version: 1,
  label_pt: 'Proposta única',
  label_en: 'Single bid',
  measures_en:
    'Whether an open or restricted procedure (OCDS method open or selective) received one bid: competition was ' +
    'invited and did not come.',
  measures_pt:
    'Se um procedimento aberto ou restrito (método OCDS open ou selective) recebeu uma só proposta: a ' +
    'concorrência foi convidada e não apareceu.',
  why_it_matters_pt:
    'Um concurso aberto com um único concorrente não teve a concorrência que o procedimento pressupõe; ' +
    'pode resultar de um caderno de encargos restritivo, de um prazo curto ou de um mercado pequeno.',
  why_it_matters_en:
    'An open procedure with a single bidder lacked the competition the procedure presumes; a restrictive ' +
    'specification, a short period or a small market can each explain it.',
  next_step_pt:
    'Verificar no portal se a lista de concorrentes está completa, ler o caderno de encargos e comparar ' +
    'com procedimentos semelhantes de outras entidades.',
  reads_beyond_record: true,
  fields: ['ocds_method', 'competitors'],
  thresholds: [],
  legal_basis: null,
  caveat_en:
    "The portal's list of competitors may be incomplete: a contract whose record names none is not assessable.",
  caveat_pt:
    'A lista de concorrentes do portal pode estar incompleta: um contrato cujo registo não indica nenhum não é ' +
    'avaliável.',
};

/** The OCDS methods in Portuguese, as a procedure is called by them (`um procedimento aberto`). */
const METHOD_PT: Record<string, string> = {
  open: 'aberto',
  selective: 'seletivo',
  limited: 'limitado',
  direct: 'direto',
};

const COMPETITIVE = new Set(['open', 'selective']);

export function checkSingleBid(c: ContractDetailRecord): Finding {
  // A record that names no competitor says nothing of how many there were: null, never 0 (docs/integrity.md).
  const values = { ocds_method: c.ocds_method, competitors: c.competitors.length === 0 ? null : c.competitors.length };
  if (c.ocds_method === null) {
    const reason = { en: 'The record gives no procedure type.', pt: 'O registo não indica o tipo de procedimento.' };
    return finding('not_assessable', reason, values);
  }
  const method = { en: c.ocds_method, pt: METHOD_PT[c.ocds_method] ?? c.ocds_method };
  if (!COMPETITIVE.has(c.ocds_method)) {
    const reason = {
      en: `Does not apply: ${withIndefinite(method.en)} procedure does not invite open competition.`,
      pt: `Não se aplica: um procedimento ${method.pt} não abre a concorrência.`,
    };
    return finding('not_flagged', reason, values);
  }
  if (c.competitors.length === 0) {
    const reason = {
      en: 'The record names no competitor: how many bids the procedure drew cannot be told.',
      pt: 'O registo não indica nenhum concorrente: não se pode saber quantas propostas o procedimento recebeu.',
    };
    return finding('not_assessable', reason, values);
  }
  if (c.competitors.length === 1) {
    const reason = {
      en: `One competitor in ${withIndefinite(method.en)} procedure.`,
      pt: `Um só concorrente num procedimento ${method.pt}.`,
    };
    return finding('flagged', reason, values);
  }
  const reason = { en: `${c.competitors.length} competitors.`, pt: `${c.competitors.length} concorrentes.` };
  return finding('not_flagged', reason, values);
}

export const SINGLE_BID_CHECK: IntegrityCheck = { type: SINGLE_BID, assess: checkSingleBid };
