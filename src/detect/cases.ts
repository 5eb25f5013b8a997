/**
 * A case's fields and the events to append, computed from its linked signals and what was stored before.
 * Pure: same input, same output, so a case computed again from unchanged signals appends nothing.
 * The rule for each field and event: docs/signals.md, "Cases".
 */

import { STAGES, type Stage } from '../lib/vocabulary.js';
import { valueTier } from '../signals/derive.js';
import type { CaseEventRecord, CaseFields, CaseSignal, CaseUpdate, PendingCase } from '../store/signal-records.js';

type Linked = PendingCase['signals'][number];

const stageRank = (s: Stage) => STAGES.indexOf(s);
/** Orders signals by event date (unknown last), then id. */
const byEvent = (a: CaseSignal, b: CaseSignal) =>
  (a.event_date ?? '9999-99-99').localeCompare(b.event_date ?? '9999-99-99') || a.id - b.id;

export function computeCase(pending: PendingCase, now: string): CaseUpdate {
  const stored = pending.fields;
  const all = pending.signals;
  const live = all.filter((l) => l.signal.status !== 'withdrawn').map((l) => l.signal);
  const origin = originOf(all);
  const stages = [...new Set(live.map((s) => s.stage).filter((s): s is Stage => s !== null))].sort(
    (a, b) => stageRank(b) - stageRank(a),
  );
  const current = stages[0] ?? null;
  const previous = stored
    ? stored.current_stage !== current
      ? stored.current_stage
      : stored.previous_stage
    : (stages[1] ?? null);
  const withAmount = live.filter((s) => s.amount_eur !== null).sort(byEvent);
  const amountSignal = withAmount.length > 0 ? withAmount.reduce(latestOf) : null;
  const amount = amountSignal?.amount_eur ?? null;
  const deadlines = live.map((s) => s.deadline_date).filter((d): d is string => d !== null);
  const eventDates = live.map((s) => s.event_date).filter((d): d is string => d !== null);
  const signals = all.map((l) => l.signal);
  const ended = current === 'completed' || current === 'cancelled';
  const allRetired = signals.every((s) => s.status !== 'active');
  const fields: CaseFields = {
    municipality_id:
      origin?.municipality_id ?? signals.find((s) => s.municipality_id !== null)?.municipality_id ?? null,
    title_pt: origin?.title_pt ?? null,
    summary_pt: origin?.summary_pt ?? null,
    current_stage: current,
    previous_stage: previous === current ? null : previous,
    status: ended || allRetired ? 'closed' : 'open',
    value_tier: valueTier(amount),
    confidence: signals.length === 0 ? 0 : Math.max(...(live.length > 0 ? live : signals).map((s) => s.confidence)),
    source_count: signals.length,
    deadline_date: deadlines.length > 0 ? deadlines.reduce((a, b) => (b > a ? b : a)) : null,
    amount_eur: amount,
    location_text: origin?.location_text ?? signals.find((s) => s.location_text !== null)?.location_text ?? null,
    event_date: eventDates.length > 0 ? eventDates.reduce((a, b) => (b > a ? b : a)) : null,
    first_seen_at:
      signals.length > 0
        ? signals.map((s) => s.first_seen_at).reduce((a, b) => (b < a ? b : a))
        : (stored?.first_seen_at ?? null),
    last_seen_at:
      signals.length > 0
        ? signals.map((s) => s.last_seen_at).reduce((a, b) => (b > a ? b : a))
        : (stored?.last_seen_at ?? null),
  };
  return { id: pending.id, fields, events: caseEvents(pending, fields, { origin, amountSignal, live }, now) };
}

function latestOf(a: CaseSignal, b: CaseSignal): CaseSignal {
  return byEvent(a, b) <= 0 ? b : a;
}

/** The earliest origin signal; the earliest signal when none is marked origin. */
function originOf(all: readonly Linked[]): CaseSignal | null {
  const origins = all.filter((l) => l.relationship === 'origin').map((l) => l.signal);
  const pool = origins.length > 0 ? origins : all.map((l) => l.signal);
  return pool.length > 0 ? [...pool].sort(byEvent)[0] : null;
}

function caseEvents(
  pending: PendingCase,
  fields: CaseFields,
  why: { origin: CaseSignal | null; amountSignal: CaseSignal | null; live: readonly CaseSignal[] },
  now: string,
): CaseEventRecord[] {
  const stored = pending.fields;
  const events: CaseEventRecord[] = [];
  const event = (
    event_type: CaseEventRecord['event_type'],
    old_value: string | null,
    new_value: string | null,
    reason: string | null,
  ) => events.push({ event_type, old_value, new_value, reason, created_at: now });
  const about = (s: CaseSignal | null | undefined) => (s ? `sinal ${s.id} (${s.type})` : null);

  if (!stored)
    event('created', null, fields.current_stage, why.origin ? `Caso aberto pelo ${about(why.origin)}` : 'Caso aberto');
  const linked = new Set(pending.events.filter((e) => e.event_type === 'signal_linked').map((e) => e.new_value));
  for (const { signal, relationship } of pending.signals) {
    if (!linked.has(String(signal.id)))
      event('signal_linked', null, String(signal.id), `${relationship}: ${signal.type}`);
  }
  if (stored) {
    if (stored.current_stage !== fields.current_stage) {
      const bringer = [...why.live].sort(byEvent).findLast((s) => s.stage === fields.current_stage);
      event('stage_changed', stored.current_stage, fields.current_stage, about(bringer));
    }
    if (stored.amount_eur !== fields.amount_eur) {
      event('amount_changed', numberText(stored.amount_eur), numberText(fields.amount_eur), about(why.amountSignal));
    }
    if (stored.deadline_date !== fields.deadline_date) {
      const bringer = why.live.find((s) => s.deadline_date === fields.deadline_date);
      event('deadline_changed', stored.deadline_date, fields.deadline_date, about(bringer));
    }
  }
  if (fields.status === 'closed' && stored?.status !== 'closed') {
    const reason =
      fields.current_stage === 'completed' || fields.current_stage === 'cancelled'
        ? `Etapa ${fields.current_stage}`
        : 'Todos os sinais do caso expiraram ou foram retirados';
    event('closed', stored?.status ?? null, 'closed', reason);
  }
  return events;
}

function numberText(n: number | null): string | null {
  return n === null ? null : String(n);
}
