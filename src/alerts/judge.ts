/**
 * The judge: a verdict on whether a match calls the account to act. An annotation only: every match is recorded
 * whatever the verdict; a judge that answers null (or fails) leaves it pending. `ruleJudge`, the default, is
 * deterministic: the first of its rules that applies decides (docs/alerts.md, "The judge", with its confidences).
 */
import type { AlertJudgeRecord, AlertRuleRecord } from '../store/signal-records.js';
import type { AlertItem } from './item.js';
import type { MatchOutcome } from './matchers.js';

export interface JudgeContext {
  rule: AlertRuleRecord;
  item: AlertItem;
  outcome: MatchOutcome;
  /** YYYY-MM-DD (UTC) of the run. */
  today: string;
}

export interface AlertJudge {
  /** A verdict, or null while there is none (the match is recorded either way). */
  judge(context: JudgeContext): AlertJudgeRecord | null | Promise<AlertJudgeRecord | null>;
}

const TENDER_SIGNALS = new Set(['tender_open', 'deadline_closing']);
const CONTRACT_SIGNALS = new Set(['contract_awarded', 'direct_award_high_value']);
const AMENDMENT_SIGNALS = new Set(['contract_amended']);

export const ruleJudge: AlertJudge = {
  judge({ item, outcome, today }) {
    if (outcome.keyword?.place === 'body') {
      return verdict(
        false,
        null,
        `As palavras de "${outcome.keyword.phrase}" só aparecem na descrição: é uma menção de passagem, não o objeto.`,
        `The words of "${outcome.keyword.phrase}" occur only in the description: a passing mention, not the subject.`,
        0.7,
      );
    }
    const signalType = item.signal?.type;
    if (item.source_type === 'procurement_announcement' || (signalType && TENDER_SIGNALS.has(signalType))) {
      if (item.deadline !== null && item.deadline < today) {
        return verdict(
          false,
          null,
          `O prazo de propostas terminou a ${item.deadline}.`,
          `The proposal deadline passed on ${item.deadline}.`,
          0.9,
        );
      }
      return item.deadline === null
        ? verdict(
            true,
            'submit_proposal',
            'Procedimento aberto a propostas (prazo não indicado).',
            'A procedure open to proposals (no deadline given).',
            0.8,
          )
        : verdict(
            true,
            'submit_proposal',
            `Procedimento aberto a propostas até ${item.deadline}.`,
            `A procedure open to proposals until ${item.deadline}.`,
            0.9,
          );
    }
    const isContract =
      item.source_type === 'procurement_contract' || (signalType !== undefined && CONTRACT_SIGNALS.has(signalType));
    const supplier = outcome.parties?.find((p) => p.role === 'supplier' || (p.role === 'party' && isContract));
    if (isContract && supplier) {
      const who = supplier.name ?? supplier.nif;
      // A signal names its parties without their roles: the watched entity may be the buyer, hence the hedge.
      return supplier.role === 'supplier'
        ? verdict(
            true,
            'review_award',
            `Contrato adjudicado a uma entidade seguida (${who}).`,
            `A contract awarded to a watched entity (${who}).`,
            0.9,
          )
        : verdict(
            true,
            'review_award',
            `Contrato com uma entidade seguida (${who}).`,
            `A contract with a watched entity (${who}).`,
            0.8,
          );
    }
    if (item.source_type === 'procurement_amendment' || (signalType && AMENDMENT_SIGNALS.has(signalType))) {
      return verdict(
        false,
        null,
        'Modificação de um contrato já celebrado: a acompanhar, sem ação a tomar.',
        'A change to a contract already signed: to follow, nothing to act on.',
        0.9,
      );
    }
    if (item.signal?.family === 'integrity') {
      // A flag asks for a closer look: "nothing to review" would contradict the flag it annotates.
      return verdict(
        false,
        null,
        'Indicador de risco num contrato: um indício para olhar com mais atenção, não uma acusação.',
        'A risk indicator on a contract: for a closer look, never an accusation.',
        0.9,
      );
    }
    if (item.signal?.family === 'indicators') {
      return verdict(
        false,
        null,
        'Variação de um indicador: contexto para acompanhar, sem ação direta.',
        'A change in an indicator: context to follow, no direct action.',
        0.9,
      );
    }
    return verdict(
      false,
      null,
      'Informação de referência: nada a submeter nem a rever.',
      'Reference information: nothing to submit or review.',
      0.9,
    );
  },
};

function verdict(
  isDirectAction: boolean,
  actionType: string | null,
  whyPt: string,
  whyEn: string,
  confidence: number,
): AlertJudgeRecord {
  return { is_direct_action: isDirectAction, action_type: actionType, why_pt: whyPt, why_en: whyEn, confidence };
}
