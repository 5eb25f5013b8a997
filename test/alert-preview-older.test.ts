/**
 * The console's preview walks back past the latest PREVIEW_RECENT item entries while it has fewer matches than it
 * shows (docs/alerts.md, "Preview"): a rule for a small municipality whose only matching signal is older than the
 * most recent signals of everywhere else still shows it; a rule with plenty of recent matches stops after the recent
 * reach and says older entries were not read; one that reaches its bound (PREVIEW_SIGNALS, made small here) with
 * fewer matches than it shows says it stopped at the limit. Signals written directly, on a fresh store, on both
 * stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREVIEW_RECENT, previewRule } from '../src/admin/alert-preview.js';
import { createAlertRule } from '../src/admin/alert-rules.js';
import type { SignalInput } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { scanned, whyNothing } from '../src/web/console/alert-rule-page.js';
import { daysBefore, EVORA, LISBOA } from './helpers/alert-fixture.js';
import { freshStore } from './helpers/procurement-store.js';

const NOW = new Date();
/** Lisbon's newer signals: more than the preview's recent reach, so Évora's is older than all of it. */
const NEWER = PREVIEW_RECENT + 500;

function awarded(key: string, municipalityId: number, title: string): SignalInput {
  return {
    key: `procurement:contract_awarded:previewtest:${key}`,
    origin: 'detector',
    case: null,
    type: 'contract_awarded',
    family: 'procurement',
    municipality_id: municipalityId,
    title_pt: title,
    title_en: null,
    summary_pt: `Resumo: ${title}`,
    summary_en: null,
    why_it_matters_pt: null,
    why_it_matters_en: null,
    next_step_pt: null,
    stage: 'contracted',
    status: 'active',
    value_tier: 'medium',
    confidence: 0.9,
    deadline_date: null,
    event_date: daysBefore(NOW, 10),
    amount_eur: 100_000,
    location_text: null,
    actionability: 'informational',
    evidence: [],
    subject: { cpv: ['45233140'], nifs: [], indicator: null, indicator_value: null },
  };
}

let store: Store;
let account: number;

async function preview(municipality: string, options?: Parameters<typeof previewRule>[3]) {
  const {
    matched_seq: _s,
    id: _i,
    enabled: _e,
    created_at: _c,
    template_id: _t,
    ...definition
  } = await createAlertRule(
    store,
    {
      account,
      name: `Adjudicações ${municipality}`,
      type: 'signal_type',
      signalTypes: ['contract_awarded'],
      municipalities: [municipality],
    },
    NOW,
  );
  return previewRule(store, definition, NOW, options);
}

beforeAll(async () => {
  ({ store } = await freshStore());
  account = (
    await store.createAccount({ name: 'Évora Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  const now = NOW.toISOString();
  await store.writeSignals({ signals: [awarded('evora', EVORA.id, 'Adjudicação em Évora')], now });
  for (let from = 0; from < NEWER; from += 2_000) {
    const signals = Array.from({ length: Math.min(2_000, NEWER - from) }, (_, i) =>
      awarded(`lisboa-${from + i}`, LISBOA.id, `Adjudicação em Lisboa ${from + i}`),
    );
    await store.writeSignals({ signals, now });
  }
}, 300_000);
afterAll(() => store?.close());

describe('the preview of a rule whose matches are older than the recent signals', () => {
  it('shows a small municipality’s only signal, older than the latest PREVIEW_RECENT, read in full', async () => {
    const p = await preview(EVORA.code);
    expect(p.matches.map((m) => m.title)).toEqual(['Adjudicação em Évora']);
    expect(p.total).toBe(1);
    expect(p.entries).toBe(NEWER + 1);
    expect(p.stopped).toBe('all');
    expect(p.olderUnread).toBe(false);
  });

  it('stops past the recent reach once it has a page of matches, and says older entries were not read', async () => {
    const p = await preview(LISBOA.code);
    expect(p.matches).toHaveLength(p.limit);
    expect(p.matches[0].title).toBe(`Adjudicação em Lisboa ${NEWER - 1}`); // newest first
    expect(p.entries).toBeGreaterThanOrEqual(PREVIEW_RECENT);
    expect(p.entries).toBeLessThan(NEWER + 1);
    expect(p.stopped).toBe('enough');
    expect(p.olderUnread).toBe(true);
  });
});

describe('the preview of a rule that reaches the most entries it reads', () => {
  const BOUND = 300;

  it('says it stopped at the limit when nothing matched among the entries it may read', async () => {
    const p = await preview(EVORA.code, { bound: BOUND });
    expect(p.total).toBe(0);
    expect(p.entries).toBe(BOUND);
    expect(p.stopped).toBe('bound');
    expect(p.olderUnread).toBe(true);
    expect(scanned(p)).toContain(
      `Read the store's latest ${BOUND} changes of items, newest first, and stopped there: the preview reads at most ` +
        `${BOUND}, and found no match of the ${p.limit} it shows.`,
    );
    expect(whyNothing(p).text).toContain(
      `Changes older than the latest ${BOUND} were not read (the preview reads at most ${BOUND}).`,
    );
  });

  it('says it stopped at the limit with fewer matches than it shows', async () => {
    const p = await preview(LISBOA.code, { limit: BOUND + 1, bound: BOUND });
    expect(p.total).toBe(BOUND);
    expect(p.stopped).toBe('bound');
    expect(scanned(p)).toContain(`and found only ${BOUND} of the ${BOUND + 1} it shows.`);
  });

  it('reads the whole journal when it is within the bound', async () => {
    const p = await preview(EVORA.code, { bound: NEWER + 1 });
    expect(p.stopped).toBe('all');
    expect(p.matches.map((m) => m.title)).toEqual(['Adjudicação em Évora']);
  });
});
