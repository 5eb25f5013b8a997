/**
 * A hand-built, deterministic set of signals, cases, alert rules and matches, written through the store
 * interface, for the black-box tests of the signals and alerts endpoints (until the demo carries detected
 * signals, and independently of how detection computes them afterwards):
 * - procurement procedures told as stories (tender_open → deadline_closing → contract_awarded → contract_amended)
 *   that form one case each; high-value direct awards, each the single signal of an episodic case; indicator
 *   episodes (indicator_jump, sometimes with an indicator_record); imported signals outside any case;
 * - written in daily batches, several signals per batch (so last_seen_at ties are broken by id), and a last batch
 *   that changes a few old signals (their last_seen_at moves, their first_seen_at stays);
 * - cases computed here by a plain rule and saved with their history (created, then one signal_linked per signal);
 * - per account: rules (own, from a template, one disabled) and matches spread over 500 days, some dismissed,
 *   some with a judge verdict.
 * Tests compute their expectations from what these functions return, never from the service's code.
 */
import type { CaseFields, CaseUpdate, SignalInput } from '../../src/store/signal-records.js';
import type { Store } from '../../src/store/store.js';
import { municipalitiesFromFile } from './reference-files.js';

const DAY_MS = 86_400_000;
/** The first batch's instant; batch b is written b days later. */
export const SIGNALS_T0 = Date.parse('2026-03-02T08:00:00Z');
export const batchInstant = (batch: number) =>
  new Date(SIGNALS_T0 + batch * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');

const byCode = new Map(municipalitiesFromFile().map((m) => [m.code, m]));
const idOf = (code: string) => {
  const m = byCode.get(code);
  if (!m) throw new Error(`no municipality ${code}`);
  return m.id;
};
/** Lisboa, Porto, Coimbra, Évora, Vila Nova de Gaia, Braga, Faro, Funchal. */
export const SIGNAL_MUNICIPALITY_CODES = ['1106', '1312', '0603', '0705', '1317', '0303', '0805', '3103'] as const;
const MUNIS = SIGNAL_MUNICIPALITY_CODES.map(idOf);

const CONFIDENCES = [0.35, 0.5, 0.62, 0.75, 0.8, 0.9, 0.95, 1];
const AMOUNTS = [12_000, 80_000, 450_000, 1_200_000, 7_500_000];

/**
 * The value tiers of docs/decisions.md (Enumerations), written out here: small (< 75 000), medium (< 750 000), large (<
 * 5 000 000), very_large.
 */
export function tierOf(amount: number | null): SignalInput['value_tier'] {
  if (amount === null) return null;
  return amount < 75_000 ? 'small' : amount < 750_000 ? 'medium' : amount < 5_000_000 ? 'large' : 'very_large';
}

/** One signal of the fixture and the batch it is written in. */
export interface FixtureSignal {
  input: SignalInput;
  batch: number;
}

function signal(fields: {
  key: string;
  type: string;
  family: string;
  municipality_id: number | null;
  title: string;
  stage: SignalInput['stage'];
  confidence: number;
  amount: number | null;
  deadline?: string | null;
  eventDate: string;
  caseRef: SignalInput['case'];
  origin?: string;
  evidence?: SignalInput['evidence'];
}): SignalInput {
  return {
    key: fields.key,
    origin: fields.origin ?? 'detector',
    case: fields.caseRef,
    type: fields.type,
    family: fields.family,
    municipality_id: fields.municipality_id,
    title_pt: fields.title,
    title_en: `EN ${fields.title}`,
    summary_pt: `Resumo: ${fields.title}`,
    summary_en: `Summary: ${fields.title}`,
    why_it_matters_pt: 'Porque envolve dinheiro público.',
    why_it_matters_en: 'Because public money is involved.',
    next_step_pt: 'Consultar o anúncio.',
    stage: fields.stage,
    status: 'active',
    value_tier: tierOf(fields.amount),
    confidence: fields.confidence,
    deadline_date: fields.deadline ?? null,
    event_date: fields.eventDate,
    amount_eur: fields.amount,
    location_text: fields.municipality_id === null ? null : `Município ${fields.municipality_id}`,
    actionability: fields.deadline ? 'prepare' : 'informational',
    evidence: fields.evidence ?? [],
    subject: { cpv: ['45233140'], nifs: [], indicator: null, indicator_value: null },
  };
}

/** The fixture's signals, in writing order (batch by batch). */
export function buildSignals(): FixtureSignal[] {
  const out: FixtureSignal[] = [];
  // Ten procedures: notice (batch 0), deadline closing (1), contract (2), and an amendment for even ones (3).
  for (let k = 0; k < 10; k++) {
    const m = MUNIS[k % MUNIS.length];
    const caseKey = `procurement:fixture:procedure:P-${k}`;
    const ref = (relationship: 'origin' | 'update') => ({
      key: caseKey,
      type: 'tender_open',
      family: 'procurement',
      relationship,
    });
    const amount = AMOUNTS[k % AMOUNTS.length];
    const common = { family: 'procurement', municipality_id: m, amount };
    out.push({
      batch: 0,
      input: signal({
        ...common,
        key: `procurement:tender_open:fixture:P-${k}`,
        type: 'tender_open',
        title: `Concurso aberto P-${k}`,
        stage: 'open',
        confidence: CONFIDENCES[k % 8],
        deadline: '2026-04-15',
        eventDate: '2026-03-01',
        caseRef: ref('origin'),
        evidence: [
          {
            source_type: 'procurement_announcement',
            source_url: `https://example.test/anuncio/P-${k}`,
            source_title: `Anúncio P-${k}`,
            source_date: '2026-03-01',
            excerpt_pt: 'Empreitada de requalificação',
            confidence: 0.9,
          },
        ],
      }),
    });
    out.push({
      batch: 1,
      input: signal({
        ...common,
        key: `procurement:deadline_closing:fixture:P-${k}`,
        type: 'deadline_closing',
        title: `Prazo a terminar P-${k}`,
        stage: 'open',
        confidence: CONFIDENCES[(k + 3) % 8],
        deadline: '2026-04-15',
        eventDate: '2026-04-01',
        caseRef: ref('update'),
      }),
    });
    out.push({
      batch: 2,
      input: signal({
        ...common,
        key: `procurement:contract_awarded:fixture:P-${k}`,
        type: 'contract_awarded',
        title: `Contrato adjudicado P-${k}`,
        stage: 'contracted',
        confidence: CONFIDENCES[(k + 5) % 8],
        eventDate: '2026-05-01',
        caseRef: ref('update'),
      }),
    });
    if (k % 2 === 0) {
      out.push({
        batch: 3,
        input: signal({
          ...common,
          amount: Math.round(amount * 1.2),
          key: `procurement:contract_amended:fixture:P-${k}`,
          type: 'contract_amended',
          title: `Contrato modificado P-${k}`,
          stage: 'amended',
          confidence: CONFIDENCES[(k + 1) % 8],
          eventDate: '2026-06-01',
          caseRef: ref('update'),
        }),
      });
    }
  }
  // Eight high-value direct awards, each alone in its case (episodic).
  for (let k = 0; k < 8; k++) {
    out.push({
      batch: 1 + (k % 4),
      input: signal({
        key: `procurement:direct_award_high_value:fixture:C-${k}`,
        type: 'direct_award_high_value',
        family: 'procurement',
        municipality_id: MUNIS[(k + 2) % MUNIS.length],
        title: `Ajuste direto de valor elevado C-${k}`,
        stage: 'contracted',
        confidence: CONFIDENCES[(k * 3) % 8],
        amount: AMOUNTS[(k + 1) % AMOUNTS.length],
        eventDate: '2026-02-20',
        caseRef: {
          key: `procurement:fixture:contract:C-${k}`,
          type: 'direct_award_high_value',
          family: 'procurement',
          relationship: 'origin',
        },
      }),
    });
  }
  // Eight indicator episodes: a jump, and for even ones a record of the same episode.
  for (let k = 0; k < 8; k++) {
    const m = MUNIS[(k + 5) % MUNIS.length];
    const caseRef = (relationship: 'origin' | 'related') => ({
      key: `indicators:fixture:${m}:${k}`,
      type: 'indicator_jump',
      family: 'indicators',
      relationship,
    });
    const common = { family: 'indicators', municipality_id: m, amount: null, stage: null, eventDate: '2025-12-31' };
    out.push({
      batch: 2 + (k % 3),
      input: signal({
        ...common,
        key: `indicators:indicator_jump:fixture:${k}`,
        type: 'indicator_jump',
        title: `Variação invulgar ${k}`,
        confidence: CONFIDENCES[(k + 2) % 8],
        caseRef: caseRef('origin'),
        evidence: [
          {
            source_type: 'indicator',
            source_url: null,
            source_title: 'População residente',
            source_date: '2025-12-31',
            excerpt_pt: null,
            confidence: null,
          },
        ],
      }),
    });
    if (k % 2 === 0) {
      out.push({
        batch: 4,
        input: signal({
          ...common,
          key: `indicators:indicator_record:fixture:${k}`,
          type: 'indicator_record',
          title: `Máximo histórico ${k}`,
          confidence: CONFIDENCES[(k + 6) % 8],
          caseRef: caseRef('related'),
        }),
      });
    }
  }
  // Four imported signals outside any case, one of them national (no municipality).
  for (let k = 0; k < 4; k++) {
    out.push({
      batch: 5,
      input: signal({
        key: `import:fixture:X-${k}`,
        origin: 'import:fixture',
        type: 'contract_awarded',
        family: 'procurement',
        municipality_id: k === 3 ? null : MUNIS[k],
        title: `Sinal importado X-${k}`,
        stage: 'awarded',
        confidence: CONFIDENCES[(k + 4) % 8],
        amount: AMOUNTS[(k + 3) % AMOUNTS.length],
        eventDate: '2026-03-10',
        caseRef: null,
      }),
    });
  }
  return out.sort((a, b) => a.batch - b.batch);
}

/** The keys the last batch (6) changes: their confidence moves, so does their last_seen_at. */
export const CHANGED_IN_LAST_BATCH = ['procurement:tender_open:fixture:P-1', 'indicators:indicator_jump:fixture:3'];
export const LAST_BATCH = 6;

/** A signal as the fixture expects it to be served: its fields, first and last seen. */
export interface ExpectedSignal {
  input: SignalInput;
  first_seen_at: string;
  last_seen_at: string;
}

export interface SignalFixture {
  signals: ExpectedSignal[];
  /** The cases saved, by case key, with the signal keys linked to each. */
  cases: Map<string, { update: CaseUpdate; signalKeys: string[]; type: string; family: string }>;
}

/** Writes the signals batch by batch, then the last batch's changes, then computes and saves every case. */
export async function seedSignals(store: Store): Promise<SignalFixture> {
  const fixture = buildSignals();
  const expected = new Map<string, ExpectedSignal>();
  for (let batch = 0; batch < LAST_BATCH; batch++) {
    const signals = fixture.filter((s) => s.batch === batch).map((s) => s.input);
    await store.writeSignals({ signals, now: batchInstant(batch) });
    for (const input of signals)
      expected.set(input.key, { input, first_seen_at: batchInstant(batch), last_seen_at: batchInstant(batch) });
  }
  const changed = CHANGED_IN_LAST_BATCH.map((key) => {
    const old = expected.get(key) as ExpectedSignal;
    return { ...old.input, confidence: 0.99 };
  });
  await store.writeSignals({ signals: changed, now: batchInstant(LAST_BATCH) });
  for (const input of changed) {
    const old = expected.get(input.key) as ExpectedSignal;
    expected.set(input.key, { input, first_seen_at: old.first_seen_at, last_seen_at: batchInstant(LAST_BATCH) });
  }
  return { signals: [...expected.values()], cases: await computeCases(store) };
}

/**
 * Computes every pending case by a plain rule (state of its latest signal, confidence of its best, first and
 * last seen over all) with a history of `created` and one `signal_linked` per signal, and saves them.
 */
async function computeCases(store: Store): Promise<SignalFixture['cases']> {
  const saved: SignalFixture['cases'] = new Map();
  for (;;) {
    const pending = await store.pendingCases(100);
    if (pending.length === 0) return saved;
    const updates: CaseUpdate[] = pending.map((c) => {
      const signals = c.signals.map((s) => s.signal);
      const latest = [...signals].sort((a, b) =>
        a.last_seen_at < b.last_seen_at ? 1 : a.last_seen_at > b.last_seen_at ? -1 : b.id - a.id,
      )[0];
      const origin = c.signals.find((s) => s.relationship === 'origin')?.signal ?? signals[0];
      const stages = [...new Set(signals.map((s) => s.stage).filter((s) => s !== null))];
      const fields: CaseFields = {
        municipality_id: origin.municipality_id,
        title_pt: `Caso: ${origin.title_pt}`,
        summary_pt: latest.summary_pt,
        current_stage: latest.stage,
        previous_stage: stages.length > 1 ? (stages.at(-2) ?? null) : null,
        status: 'open',
        value_tier: latest.value_tier,
        confidence: Math.max(...signals.map((s) => s.confidence)),
        source_count: signals.length,
        deadline_date: latest.deadline_date,
        amount_eur: latest.amount_eur,
        location_text: latest.location_text,
        event_date: latest.event_date,
        first_seen_at: signals.map((s) => s.first_seen_at).sort()[0],
        last_seen_at:
          signals
            .map((s) => s.last_seen_at)
            .sort()
            .at(-1) ?? null,
      };
      const events: CaseUpdate['events'] = [
        {
          event_type: 'created',
          old_value: null,
          new_value: origin.type,
          reason: 'primeiro sinal',
          created_at: origin.first_seen_at,
        },
        ...signals.map((s) => ({
          event_type: 'signal_linked' as const,
          old_value: null,
          new_value: String(s.id),
          reason: s.type,
          created_at: s.first_seen_at,
        })),
      ];
      const update = { id: c.id, fields, events };
      saved.set(c.key, { update, signalKeys: signals.map((s) => s.key), type: c.type, family: c.family });
      return update;
    });
    await store.saveCases(updates);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Alerts

/** Days before `now` the matches of each rule are recorded at; two share an instant (ties by id). */
export const MATCH_AGES_DAYS = [0.01, 0.5, 2, 2, 6, 10, 29, 31, 45, 100, 200, 364, 366, 500];

export interface FixtureMatch {
  title: string;
  rule_id: number;
  municipality_id: number | null;
  status: 'matched' | 'dismissed';
  matched_at: string;
  judge: boolean;
}

export interface AlertFixture {
  ruleIds: number[];
  /** The rule turned on from a template. */
  templateRuleId: number;
  disabledRuleId: number;
  matches: FixtureMatch[];
}

/**
 * Rules and matches of one account: a keyword rule on two municipalities, a national signal_type rule, a
 * subscription from a template, a disabled rule; each rule with matches recorded MATCH_AGES_DAYS before `now`
 * (every fourth dismissed, every third without a judge verdict), titles prefixed with `tag`.
 */
export async function seedAlerts(store: Store, accountId: number, now: number, tag: string): Promise<AlertFixture> {
  const created = new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z');
  await store.saveAlertTemplates([
    {
      key: 'fixture-open-tenders',
      name: 'Concursos abertos (fixture)',
      description: 'Todos os concursos abertos.',
      matcher_type: 'signal_type',
      params: { signal_types: ['tender_open'] },
      source_types: ['signal'],
      target_scope: 'national',
    },
  ]);
  const template = (await store.listAlertTemplates()).find((t) => t.key === 'fixture-open-tenders');
  if (!template) throw new Error('template not saved');
  const base = { account_id: accountId, district: null, now: created, template_id: null };
  const keyword = await store.createAlertRule({
    ...base,
    name: `${tag} obras em Lisboa e Porto`,
    matcher_type: 'keyword',
    params: { keywords: ['obras'] },
    source_types: ['procurement_announcement', 'procurement_contract'],
    municipality_ids: [MUNIS[0], MUNIS[1]],
    target_scope: 'municipalities',
  });
  const byType = await store.createAlertRule({
    ...base,
    name: `${tag} ajustes diretos`,
    matcher_type: 'signal_type',
    params: { signal_types: ['direct_award_high_value'] },
    source_types: ['signal'],
    municipality_ids: [],
    target_scope: 'national',
  });
  const subscription = await store.createAlertRule({
    ...base,
    name: template.name,
    matcher_type: template.matcher_type,
    params: template.params,
    source_types: template.source_types,
    municipality_ids: [],
    target_scope: template.target_scope,
    template_id: template.id,
  });
  const disabled = await store.createAlertRule({
    ...base,
    name: `${tag} desligada`,
    matcher_type: 'cpv',
    params: { cpv_prefixes: ['45'] },
    source_types: [],
    municipality_ids: [MUNIS[2]],
    target_scope: 'municipalities',
  });
  await store.setAlertRuleEnabled(disabled.id, false);

  const rules = [keyword, byType, subscription, disabled];
  const matches: FixtureMatch[] = [];
  const inputs = rules.flatMap((rule, r) =>
    MATCH_AGES_DAYS.map((age, j) => {
      const n = r * MATCH_AGES_DAYS.length + j;
      const match: FixtureMatch = {
        title: `${tag} match ${r}-${j}`,
        rule_id: rule.id,
        municipality_id: j === 5 ? null : MUNIS[n % 4],
        status: n % 4 === 3 ? 'dismissed' : 'matched',
        // Whole seconds, each rule a few seconds apart so that only the deliberate pair (age 2) ties.
        matched_at: new Date(Math.floor((now - age * DAY_MS) / 1000) * 1000 - r * 1000)
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        judge: n % 3 !== 0,
      };
      matches.push(match);
      return {
        rule_id: rule.id,
        item_key: `signal:${tag}:${n}`,
        source_type: rule.source_types[0] ?? 'signal',
        municipality_id: match.municipality_id,
        score: 0.5 + (n % 5) / 10,
        title: match.title,
        snippet: `… ${match.title} …`,
        link: `https://example.test/${tag}/${n}`,
        matched_at: match.matched_at,
        case_id: null,
        judge: match.judge
          ? {
              is_direct_action: n % 2 === 0,
              action_type: 'tender',
              why_pt: 'É um concurso.',
              why_en: 'It is a tender.',
              confidence: 0.8,
            }
          : null,
      };
    }),
  );
  await store.recordAlertMatches({ matches: inputs, matchedSeq: [] });
  // A match is recorded as matched; the fixture's dismissed ones are then dismissed, as `alerts dismiss` does.
  const recorded = await store.listAlertMatches({ accountId, since: '1970-01-01T00:00:00Z' }, { limit: 10_000 });
  const dismissed = new Set(matches.filter((m) => m.status === 'dismissed').map((m) => m.title));
  for (const m of recorded) if (m.title !== null && dismissed.has(m.title)) await store.dismissAlertMatch(m.id);
  return { ruleIds: rules.map((r) => r.id), templateRuleId: subscription.id, disabledRuleId: disabled.id, matches };
}
