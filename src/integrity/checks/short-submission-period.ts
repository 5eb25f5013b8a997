/**
 * R003, short submission period: the days a procedure's notice gave to submit proposals, under Cardinal's default
 * threshold. That threshold is an international indicator's default, not a Portuguese legal minimum: the legal
 * minimums by procedure type (CCP art. 135.º/136.º) are not confirmed from the 2024 text, so none is checked
 * (docs/integrity.md); PT-R003-FENCE compares the period with comparable procedures instead.
 */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { CheckContext, IntegrityCheck } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';
import { periodUnknown, submissionPeriod } from '../notice-period.js';
import { counted } from '../said.js';

export const SHORT_SUBMISSION_PERIOD: IntegrityType = {
  key: 'short_submission_period',
  code: 'R003',
  version: 1,
  label_pt: 'Prazo curto para apresentação de propostas',
  label_en: 'Short submission period',
  measures_en:
    "The calendar days from the publication of the procedure's notice to its proposal deadline, compared with " +
    "Cardinal's default threshold: fewer days leave less time for bidders without inside knowledge.",
  measures_pt:
    'Os dias de calendário entre a publicação do anúncio do procedimento e o termo do prazo de ' +
    'apresentação de propostas, comparados com o limiar por omissão do Cardinal: menos dias deixam menos ' +
    'tempo a quem concorre sem conhecimento prévio.',
  why_it_matters_pt:
    'Um prazo curto para propostas pode afastar concorrentes que não sabiam do procedimento antes da ' +
    'publicação; é um dos indicadores de risco mais usados na contratação pública (guia de bandeiras ' +
    'vermelhas da Open Contracting Partnership).',
  why_it_matters_en:
    'A short period for proposals can keep away bidders who did not know of the procedure before it was ' +
    'published; it is one of the most used risk indicators in public procurement (the Open Contracting ' +
    "Partnership's red-flag guide).",
  next_step_pt:
    'Ler o anúncio e as peças do procedimento: confirmar as datas, o prazo mínimo legal para este tipo de ' +
    'procedimento e se houve retificações ou prorrogações do prazo.',
  reads_beyond_record: false,
  fields: ['announcement_id', 'announcement.published_on', 'announcement.deadline_on'],
  thresholds: [
    {
      key: 'min_period_days',
      value: 15,
      unit: 'days',
      source:
        "Cardinal's R003 default (open-contracting/cardinal-rs, src/indicators/r003.rs): an indicator's default, " +
        'not a Portuguese legal minimum',
    },
  ],
  legal_basis: null,
  caveat_en:
    "15 days is Cardinal's default, not the law: the CCP's minimum periods (art. 135.º/136.º) are not checked, as " +
    'their figures in the text in force are not confirmed here, and an urgent public tender has shorter periods by ' +
    'design. A contract whose record links no notice with both dates is not assessable.',
  caveat_pt:
    '15 dias é o valor por omissão do Cardinal, não a lei: os prazos mínimos do CCP (artigos 135.º e 136.º) não são ' +
    'verificados, porque os seus valores no texto em vigor não estão aqui confirmados, e um concurso público urgente ' +
    'tem prazos mais curtos por natureza. Um contrato cujo registo não liga nenhum anúncio com as duas datas não é ' +
    'avaliável.',
};

export async function checkShortSubmissionPeriod(c: ContractDetailRecord, ctx: CheckContext): Promise<Finding> {
  const answer = await submissionPeriod(c, ctx);
  const values = {
    announcement_id: c.announcement_id,
    published_on: answer.period?.published_on ?? null,
    deadline_on: answer.period?.deadline_on ?? null,
    period_days: answer.period?.days ?? null,
  };
  if (!answer.period) return finding('not_assessable', periodUnknown(answer.missing), values);
  const { days } = answer.period;
  const minimum = threshold(SHORT_SUBMISSION_PERIOD, 'min_period_days');
  // Cardinal flags `duration < threshold`: 15 days exactly is not short.
  if (days < minimum) {
    const reason = {
      en: `The notice gave ${days} days to submit proposals, under ${minimum}.`,
      pt: `O anúncio deu ${counted(days, 'dia')} para apresentar propostas, menos de ${minimum}.`,
    };
    return finding('flagged', reason, values);
  }
  const reason = {
    en: `The notice gave ${days} days to submit proposals.`,
    pt: `O anúncio deu ${counted(days, 'dia')} para apresentar propostas.`,
  };
  return finding('not_flagged', reason, values);
}

export const SHORT_SUBMISSION_PERIOD_CHECK: IntegrityCheck = {
  type: SHORT_SUBMISSION_PERIOD,
  assess: checkShortSubmissionPeriod,
};
