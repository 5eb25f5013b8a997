/**
 * Signals of a procurement notice (an announcement):
 *  - tender_open, always: stage `open` and status active while its proposal deadline is today or later, then
 *    stage `closed` and status expired; stage `announced` (active) when the notice gives no deadline;
 *  - deadline_closing, while the deadline is 0–14 days away (act_now); once the deadline has passed, a
 *    deadline_closing signal that exists is kept as expired (one that never existed is not created: a notice
 *    first seen after its deadline never was "closing"); a deadline moved beyond the window withdraws it.
 * Texts depend on the record and the status only (never on a count of days), so a signal changes when its
 * record or its status does, not every day.
 */

import { clip } from '../lib/clip.js';
import { subjectName } from '../lib/portuguese-articles.js';
import { actionability, daysUntil, valueTier } from '../signals/derive.js';
import type { AnnouncementRecord } from '../store/procurement-records.js';
import type { SignalInput } from '../store/signal-records.js';
import { confidence, type Missing, procurementReliability } from './confidence.js';
import { type Candidate, DETECTOR_ORIGIN, type DetectionContext } from './detection-context.js';
import { announcementEvidence, subjectOf } from './evidence.js';
import { euros, longDate, parenthesised } from './format.js';
import { announcementCase, PROCUREMENT, procurementSignalKey } from './procedure-case.js';

/** The deadline_closing window, in days before the deadline (act_now is ≤ 14 days away: docs/decisions.md). */
export const CLOSING_WINDOW_DAYS = 14;
const TITLE_OBJECT = 120;

/** The keys of the signals a notice may have. */
export function announcementKeys(a: Pick<AnnouncementRecord, 'source' | 'source_id'>): string[] {
  return [
    procurementSignalKey('tender_open', a.source, a.source_id),
    procurementSignalKey('deadline_closing', a.source, a.source_id),
  ];
}

export function announcementCandidates(
  a: AnnouncementRecord,
  ctx: DetectionContext,
  exists: (key: string) => boolean,
): Candidate[] {
  const closingKey = procurementSignalKey('deadline_closing', a.source, a.source_id);
  const days = a.deadline_on === null ? null : daysUntil(a.deadline_on, ctx.today);
  const inWindow = days !== null && days >= 0 && days <= CLOSING_WINDOW_DAYS;
  const keptExpired = days !== null && days < 0 && exists(closingKey);
  return [
    {
      key: procurementSignalKey('tender_open', a.source, a.source_id),
      signal: tenderOpen(a, ctx),
      case: announcementCase(a, 'tender_open'),
    },
    {
      key: closingKey,
      signal: inWindow || keptExpired ? deadlineClosing(a, ctx) : null,
      case: announcementCase(a, 'deadline_closing'),
    },
  ];
}

/** The facts both signals of a notice share. */
function common(a: AnnouncementRecord, ctx: DetectionContext, type: 'tender_open' | 'deadline_closing') {
  const placed = ctx.places.place(a.municipalities, [a.buyer.nif], a.district);
  const missing: Missing[] = [];
  if (a.base_price_eur === null) missing.push('amount');
  if (placed.municipality_id === null) missing.push('municipality');
  if (a.published_on === null) missing.push('date');
  if (a.deadline_on === null) missing.push('deadline');
  if (a.link === null) missing.push('link');
  const passed = a.deadline_on !== null && a.deadline_on < ctx.today;
  const where = placed.location_text;
  const object = clip(a.object, TITLE_OBJECT);
  const price = a.base_price_eur;
  const pt = [
    `${subjectName(a.buyer.name)} publicou${a.published_on ? ` a ${longDate(a.published_on, 'pt')}` : ''} ` +
      `o anúncio ${a.source_id}` +
      `${a.procedure_type ? ` ${parenthesised(a.procedure_type.toLowerCase())}` : ''} para «${clip(a.object, 300)}»` +
      `${price !== null ? `, com preço base de ${euros(price, 'pt')}` : ''}${placed.in_pt ? `, ${placed.in_pt}` : ''}.`,
    a.deadline_on === null
      ? 'O anúncio não indica prazo para a apresentação de propostas.'
      : passed
        ? `O prazo para a apresentação de propostas terminou a ${longDate(a.deadline_on, 'pt')}.`
        : `As propostas podem ser apresentadas até ${longDate(a.deadline_on, 'pt')}.`,
  ].join(' ');
  const en = [
    `${a.buyer.name} published notice ${a.source_id}${a.published_on ? ` on ${longDate(a.published_on, 'en')}` : ''}` +
      ` for “${clip(a.object, 300)}”` +
      `${price !== null ? `, with a base price of ${euros(price, 'en')}` : ''}${where ? `, in ${where}` : ''}.`,
    a.deadline_on === null
      ? 'The notice gives no deadline for proposals.'
      : passed
        ? `The deadline for proposals passed on ${longDate(a.deadline_on, 'en')}.`
        : `Proposals may be submitted until ${longDate(a.deadline_on, 'en')}.`,
  ].join(' ');
  return {
    base: {
      key: procurementSignalKey(type, a.source, a.source_id),
      origin: DETECTOR_ORIGIN,
      type,
      family: PROCUREMENT,
      municipality_id: placed.municipality_id,
      summary_pt: pt,
      summary_en: en,
      value_tier: valueTier(price),
      confidence: confidence(procurementReliability(a.source), missing),
      deadline_date: a.deadline_on,
      event_date: a.published_on,
      amount_eur: price,
      location_text: where,
      evidence: [announcementEvidence(a)],
      subject: subjectOf(a.cpv, [a.buyer]),
      case: announcementCase(a, type),
    },
    object,
    passed,
  };
}

function tenderOpen(a: AnnouncementRecord, ctx: DetectionContext): SignalInput {
  const { base, object, passed } = common(a, ctx, 'tender_open');
  const deadline = a.deadline_on;
  return {
    ...base,
    title_pt: `${passed ? 'Concurso encerrado' : 'Concurso aberto'}: ${object} (${a.buyer.name})`,
    title_en: `${passed ? 'Closed tender' : 'Open tender'}: ${object} (${a.buyer.name})`,
    why_it_matters_pt: passed
      ? 'O procedimento segue para a avaliação das propostas e a adjudicação: o contrato que dele resultar mostra ' +
        'quem ganhou e por que preço.'
      : 'Um concurso aberto é uma oportunidade de negócio para as empresas do setor e mostra onde o município vai ' +
        'gastar o seu orçamento.',
    why_it_matters_en: passed
      ? 'The procedure moves on to the evaluation of proposals and the award: the resulting contract will show who ' +
        'won and at what price.'
      : 'An open tender is a business opportunity for companies in the sector and shows where the municipality is ' +
        'about to spend its budget.',
    next_step_pt: passed
      ? 'Acompanhar a adjudicação e a publicação do contrato no portal BASE.'
      : deadline
        ? `Consultar as peças do procedimento na plataforma de contratação e submeter a proposta ` +
          `até ${longDate(deadline, 'pt')}.`
        : 'Consultar as peças do procedimento na plataforma de contratação para conhecer o prazo de propostas.',
    stage: deadline === null ? 'announced' : passed ? 'closed' : 'open',
    status: passed ? 'expired' : 'active',
    actionability: actionability(deadline, ctx.today, true),
  };
}

function deadlineClosing(a: AnnouncementRecord, ctx: DetectionContext): SignalInput {
  const { base, object, passed } = common(a, ctx, 'deadline_closing');
  const deadline = a.deadline_on as string;
  return {
    ...base,
    title_pt: `${passed ? 'Prazo terminado' : 'Prazo a terminar'} a ${longDate(deadline, 'pt')}: ${object}`,
    title_en: `${passed ? 'Deadline passed' : 'Deadline closing'} on ${longDate(deadline, 'en')}: ${object}`,
    why_it_matters_pt: passed
      ? 'O prazo de propostas deste concurso já terminou.'
      : 'Faltam no máximo 14 dias para o fim do prazo de propostas: quem quiser concorrer tem de decidir já.',
    why_it_matters_en: passed
      ? 'The proposal deadline of this tender has passed.'
      : 'The proposal deadline is at most 14 days away: anyone who wants to bid must decide now.',
    next_step_pt: passed
      ? 'Acompanhar a adjudicação e a publicação do contrato no portal BASE.'
      : `Submeter a proposta na plataforma de contratação até ${longDate(deadline, 'pt')}.`,
    stage: passed ? 'closed' : 'open',
    status: passed ? 'expired' : 'active',
    actionability: actionability(deadline, ctx.today, true),
  };
}
