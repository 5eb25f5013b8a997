/** computeCase: a case's fields and new events from its signals and what was stored (pure, no store). */
import { describe, expect, it } from 'vitest';
import { computeCase } from '../src/detect/cases.js';
import type { CaseRelationship } from '../src/lib/vocabulary.js';
import type { CaseEventRecord, PendingCase, SignalRecord } from '../src/store/signal-records.js';

const T1 = '2026-03-01T10:00:00Z';
const T2 = '2026-03-20T10:00:00Z';

function signal(id: number, over: Partial<SignalRecord> = {}): SignalRecord {
  return {
    id,
    key: `k${id}`,
    origin: 'detector',
    type: 'tender_open',
    family: 'procurement',
    municipality_id: 7,
    title_pt: `Sinal ${id}`,
    title_en: null,
    summary_pt: `Resumo ${id}`,
    summary_en: null,
    why_it_matters_pt: null,
    why_it_matters_en: null,
    next_step_pt: null,
    stage: 'open',
    status: 'active',
    value_tier: null,
    confidence: 0.8,
    deadline_date: null,
    event_date: '2026-01-10',
    amount_eur: null,
    location_text: 'Lisboa',
    actionability: null,
    evidence: [],
    subject: { cpv: [], nifs: [], indicator: null, indicator_value: null },
    first_seen_at: T1,
    last_seen_at: T1,
    updated_at: '2026-03-01T10:00:00.000Z',
    case_id: 1,
    ...over,
  };
}

function pending(
  signals: [SignalRecord, CaseRelationship][],
  stored?: { fields: PendingCase['fields']; events: CaseEventRecord[] },
): PendingCase {
  return {
    id: 1,
    key: 'procurement:demo:announcement:A-1',
    type: 'tender_open',
    family: 'procurement',
    fields: stored?.fields ?? null,
    events: stored?.events ?? [],
    signals: signals.map(([s, relationship]) => ({ signal: s, relationship })),
  };
}

const tender = signal(1, {
  stage: 'open',
  amount_eur: 100_000,
  deadline_date: '2026-04-01',
  event_date: '2026-01-10',
  confidence: 0.75,
});
const contract = signal(2, {
  type: 'contract_awarded',
  stage: 'contracted',
  amount_eur: 92_000,
  event_date: '2026-05-02',
  confidence: 0.9,
  title_pt: 'Contrato',
  first_seen_at: T2,
  last_seen_at: T2,
});
const amendment = signal(3, {
  type: 'contract_amended',
  stage: 'amended',
  amount_eur: 99_500,
  event_date: '2026-09-15',
  last_seen_at: T2,
});

describe('computeCase', () => {
  it('on first computation: fields from the signals, created then one signal_linked per signal', () => {
    const update = computeCase(
      pending([
        [tender, 'origin'],
        [contract, 'update'],
      ]),
      T2,
    );
    expect(update.fields).toEqual({
      municipality_id: 7,
      title_pt: 'Sinal 1',
      summary_pt: 'Resumo 1',
      current_stage: 'contracted',
      previous_stage: 'open',
      status: 'open',
      value_tier: 'medium',
      confidence: 0.9,
      source_count: 2,
      deadline_date: '2026-04-01',
      amount_eur: 92_000,
      location_text: 'Lisboa',
      event_date: '2026-05-02',
      first_seen_at: T1,
      last_seen_at: T2,
    });
    expect(update.events.map((e) => [e.event_type, e.new_value])).toEqual([
      ['created', 'contracted'],
      ['signal_linked', '1'],
      ['signal_linked', '2'],
    ]);
    expect(update.events.every((e) => e.created_at === T2)).toBe(true);
  });

  it('computed again from the same signals: the same fields and no event', () => {
    const input = pending([
      [tender, 'origin'],
      [contract, 'update'],
    ]);
    const once = computeCase(input, T1);
    const again = computeCase({ ...input, fields: once.fields, events: once.events }, T2);
    expect(again.fields).toEqual(once.fields);
    expect(again.events).toEqual([]);
  });

  it('appends stage_changed, amount_changed and signal_linked when an amendment joins', () => {
    const before = computeCase(
      pending([
        [tender, 'origin'],
        [contract, 'update'],
      ]),
      T1,
    );
    const after = computeCase(
      pending(
        [
          [tender, 'origin'],
          [contract, 'update'],
          [amendment, 'update'],
        ],
        before,
      ),
      T2,
    );
    expect(after.fields).toMatchObject({
      current_stage: 'amended',
      previous_stage: 'contracted',
      amount_eur: 99_500,
      source_count: 3,
    });
    expect(after.events.map((e) => [e.event_type, e.old_value, e.new_value])).toEqual([
      ['signal_linked', null, '3'],
      ['stage_changed', 'contracted', 'amended'],
      ['amount_changed', '92000', '99500'],
    ]);
  });

  it('closes when every signal is expired or withdrawn, once', () => {
    const open = computeCase(pending([[tender, 'origin']]), T1);
    const expired = { ...tender, status: 'expired' as const, stage: 'closed' as const };
    const closed = computeCase(pending([[expired, 'origin']], open), T2);
    expect(closed.fields.status).toBe('closed');
    expect(closed.events.map((e) => [e.event_type, e.old_value, e.new_value])).toEqual([
      ['stage_changed', 'open', 'closed'],
      ['closed', 'open', 'closed'],
    ]);
    const history = { fields: closed.fields, events: [...open.events, ...closed.events] };
    expect(computeCase(pending([[expired, 'origin']], history), T2).events).toEqual([]);
  });

  it('closes on the completed and cancelled stages even with active signals', () => {
    const done = signal(4, { stage: 'completed' });
    const update = computeCase(
      pending([
        [tender, 'origin'],
        [done, 'update'],
      ]),
      T1,
    );
    expect(update.fields).toMatchObject({ current_stage: 'completed', status: 'closed' });
    expect(update.events.at(-1)).toMatchObject({ event_type: 'closed', new_value: 'closed' });
  });

  it('leaves withdrawn signals out of stage and amount, but counts them', () => {
    const withdrawn = { ...contract, status: 'withdrawn' as const };
    const update = computeCase(
      pending([
        [tender, 'origin'],
        [withdrawn, 'update'],
      ]),
      T1,
    );
    expect(update.fields).toMatchObject({
      current_stage: 'open',
      amount_eur: 100_000,
      source_count: 2,
      status: 'open',
    });
  });

  it('takes title and place from the origin, else from the earliest signal', () => {
    const withOrigin = computeCase(
      pending([
        [contract, 'origin'],
        [tender, 'update'],
      ]),
      T1,
    );
    expect(withOrigin.fields.title_pt).toBe('Contrato');
    const without = computeCase(
      pending([
        [contract, 'related'],
        [tender, 'related'],
      ]),
      T1,
    );
    expect(without.fields.title_pt).toBe('Sinal 1');
  });

  it('records a deadline change', () => {
    const before = computeCase(pending([[tender, 'origin']]), T1);
    const moved = { ...tender, deadline_date: '2026-04-15' };
    const after = computeCase(pending([[moved, 'origin']], before), T2);
    expect(after.events).toEqual([
      {
        event_type: 'deadline_changed',
        old_value: '2026-04-01',
        new_value: '2026-04-15',
        reason: 'sinal 1 (tender_open)',
        created_at: T2,
      },
    ]);
  });

  it('copes with a case its only signal left', () => {
    const before = computeCase(pending([[tender, 'origin']]), T1);
    const empty = computeCase(pending([], before), T2);
    expect(empty.fields).toMatchObject({
      source_count: 0,
      status: 'closed',
      current_stage: null,
      first_seen_at: T1,
      last_seen_at: T1,
    });
  });
});
