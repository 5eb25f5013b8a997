/** The contract closed later than its signing date plus its execution period, by more than a threshold. */
import type { ContractDetailRecord } from '../../store/procurement-records.js';
import { type Finding, finding } from '../assessment.js';
import type { IntegrityCheck } from '../check.js';
import { type IntegrityType, threshold } from '../methodology.js';

export const DELAY: IntegrityType = {
  key: 'delay',
  code: 'PT-DELAY',
  version: 1,
  label_pt: 'Atraso na execução',
  label_en: 'Delay',
  measures_en:
    'The days between the expected end (signing date plus the execution period) and the closing date the portal ' +
    'reports; flagged over both the minimum days and the share of the execution period.',
  measures_pt:
    'Os dias entre o fim previsto (data de assinatura mais o prazo de execução) e a data de encerramento ' +
    'comunicada ao portal; assinalado acima de um mínimo de dias e de uma proporção do prazo de execução.',
  why_it_matters_pt:
    'Atrasos longos na execução podem significar custos adicionais, prorrogações sem fundamento ou falta ' +
    'de acompanhamento do contrato pela entidade.',
  why_it_matters_en:
    'Long delays in execution can mean extra costs, unjustified extensions or a buyer not following the ' + 'contract.',
  next_step_pt:
    'Procurar prorrogações de prazo e modificações publicadas, e confirmar a data de encerramento no ' + 'portal.',
  reads_beyond_record: false,
  fields: ['signed_on', 'execution_days', 'closed_on'],
  thresholds: [
    { key: 'min_late_days', value: 30, unit: 'days', source: "munidata's default" },
    { key: 'late_ratio', value: 0.2, unit: 'ratio', source: "munidata's default (a fifth of the execution period)" },
  ],
  legal_basis: null,
  caveat_en: 'Extensions can be lawful: a delay is a reason to read the record, not a finding.',
  caveat_pt: 'As prorrogações podem ser lícitas: um atraso é motivo para ler o registo, não uma conclusão.',
};

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;

export function checkDelay(c: ContractDetailRecord): Finding {
  const values = {
    signed_on: c.signed_on,
    execution_days: c.execution_days,
    closed_on: c.closed_on,
    late_days: null,
  };
  if (c.signed_on === null || c.execution_days === null || c.closed_on === null) {
    const missing = [
      c.signed_on === null ? { en: 'signing date', pt: 'a data de celebração' } : null,
      c.execution_days === null ? { en: 'execution period', pt: 'o prazo de execução' } : null,
      c.closed_on === null
        ? {
            en: 'closing date (the contract may still be running)',
            pt: 'a data de encerramento (o contrato pode estar ainda em execução)',
          }
        : null,
    ].filter((m) => m !== null);
    const reason = {
      en: `The record gives no ${missing.map((m) => m.en).join(', no ')}.`,
      pt: `O registo não indica ${missing.map((m) => m.pt).join(', nem ')}.`,
    };
    return finding('not_assessable', reason, values);
  }
  const late = Math.round(dayNumber(c.closed_on) - dayNumber(c.signed_on) - c.execution_days);
  const allowed = Math.max(threshold(DELAY, 'min_late_days'), threshold(DELAY, 'late_ratio') * c.execution_days);
  const compared = { ...values, late_days: late };
  if (late > allowed) {
    const reason = {
      en: `Closed ${late} days after the expected end.`,
      pt: `Encerrado ${late} dias depois do fim previsto.`,
    };
    return finding('flagged', reason, compared);
  }
  const reason =
    late > 0
      ? { en: `Closed ${late} days late.`, pt: `Encerrado com ${late} ${late === 1 ? 'dia' : 'dias'} de atraso.` }
      : { en: 'Closed on time.', pt: 'Encerrado dentro do prazo.' };
  return finding('not_flagged', reason, compared);
}

export const DELAY_CHECK: IntegrityCheck = { type: DELAY, assess: checkDelay };
