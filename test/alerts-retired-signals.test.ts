/**
 * Alert matching judges a signal as it stands when the matcher reads it (docs/alerts.md, "Withdrawn and expired
 * signals"): a contract_awarded signal that detection withdrew (its price corrected below 75 000 €) or expired (its
 * contract closed) before matching ran is not matched — by a predefined subscription, a rule of one's own, or the
 * console's preview — while an active one is; a match recorded before the withdrawal stays as it was. Hand-made
 * contracts on a fresh store, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { previewRule } from '../src/admin/alert-preview.js';
import { createAlertRule, subscribeToTemplate } from '../src/admin/alert-rules.js';
import { runAlertMatching } from '../src/alerts/run-matching.js';
import { runDetection } from '../src/detect/run-detection.js';
import type { ContractInput } from '../src/store/procurement-records.js';
import type { AlertMatchRecord, SignalRecord } from '../src/store/signal-records.js';
import type { Store } from '../src/store/store.js';
import { daysBefore, EVORA, EVORA_BUYER, WATCHED_SUPPLIER } from './helpers/alert-fixture.js';
import { contractInput } from './helpers/procurement-fixture.js';
import { freshStore } from './helpers/procurement-store.js';

const NOW = new Date();
const SOURCE = 'retiredtest';

/** An open procedure's contract in Évora, signed five days ago, being executed: 100 000 € makes it contract_awarded. */
function contract(sourceId: string, changes: Partial<ContractInput> = {}): ContractInput {
  return contractInput(sourceId, {
    source: SOURCE,
    imported_at: NOW.toISOString(),
    object: `Fornecimento de balões meteorológicos ${sourceId}`,
    contract_types: ['Aquisição de bens móveis'],
    cpvs: ['38000000'],
    buyers: [EVORA_BUYER],
    suppliers: [WATCHED_SUPPLIER],
    price_eur: 100_000,
    published_on: daysBefore(NOW, 5),
    signed_on: daysBefore(NOW, 5),
    execution_days: 365,
    execution_places_text: 'Évora',
    municipality_ids: [EVORA.id],
    link: `https://example.test/contrato/${sourceId}`,
    ...changes,
  });
}

let store: Store;
let account: number;
/** The predefined subscription to contract_awarded signals, on before any contract arrives. */
let subscription: number;

const write = (...contracts: ContractInput[]) =>
  store.writeProcurement({ contracts, announcements: [], amendments: [] });
const detect = () => runDetection(store, { now: NOW });
const match = () => runAlertMatching(store, { now: NOW });

async function awarded(sourceId: string): Promise<SignalRecord> {
  const [signal] = await store.getSignalsByKeys([`procurement:contract_awarded:${SOURCE}:${sourceId}`]);
  expect(signal, sourceId).toBeDefined();
  return signal;
}

async function matchesOf(ruleId: number): Promise<AlertMatchRecord[]> {
  return store.listAlertMatches({ accountId: account, ruleId, since: '2000-01-01T00:00:00Z' }, { limit: 100 });
}
const keysOf = (matches: readonly { item_key: string }[]) => matches.map((m) => m.item_key).sort();

beforeAll(async () => {
  ({ store } = await freshStore());
  account = (
    await store.createAccount({ name: 'Meteo Lda', plan_code: 'premium', beta: false, now: NOW.toISOString() })
  ).id;
  subscription = (await subscribeToTemplate(store, { account, template: 'contracts-awarded' }, NOW)).id;
}, 120_000);
afterAll(() => store?.close());

describe('signals withdrawn or expired before matching', () => {
  let recorded: AlertMatchRecord;

  it('a signal matched while it stood keeps its match once withdrawn, and is not announced again', async () => {
    await write(contract('A'));
    await detect();
    expect((await match()).matched).toBe(1);
    [recorded] = await matchesOf(subscription);
    expect(recorded.item_key).toBe(`signal:${(await awarded('A')).id}`);

    // The price is corrected below the threshold: detection withdraws the signal.
    await write(contract('A', { price_eur: 50_000 }));
    await detect();
    expect((await awarded('A')).status).toBe('withdrawn');
    const run = await match();
    expect(run.entries).toBeGreaterThan(0);
    expect(run.matched).toBe(0);
    expect(await matchesOf(subscription)).toEqual([recorded]);
    expect(recorded.status).toBe('matched');
  });

  it('only the signal still active when matching reads it is matched', async () => {
    // B stands; C is written, then corrected below the threshold; D's contract is closed: all before matching runs.
    await write(contract('B'), contract('C'), contract('D'));
    await detect();
    await write(contract('C', { price_eur: 60_000 }), contract('D', { closed_on: daysBefore(NOW, 1) }));
    await detect();
    const [b, c, d] = [await awarded('B'), await awarded('C'), await awarded('D')];
    expect([b.status, c.status, d.status]).toEqual(['active', 'withdrawn', 'expired']);

    const run = await match();
    expect(run.matched).toBe(1);
    expect(keysOf(await matchesOf(subscription))).toEqual([recorded.item_key, `signal:${b.id}`].sort());
  });

  it('a new rule, matched over the whole journal, and its preview take the active signals only', async () => {
    const created = await createAlertRule(
      store,
      { account, name: 'Adjudicações', type: 'signal_type', signalTypes: ['contract_awarded'] },
      NOW,
    );
    await match();
    const [a, b] = [await awarded('A'), await awarded('B')];
    expect(keysOf(await matchesOf(created.id))).toEqual([`signal:${b.id}`]);

    const { matched_seq: _seq, id: _id, enabled: _on, created_at: _at, template_id: _t, ...definition } = created;
    const preview = await previewRule(store, definition, NOW);
    expect(keysOf(preview.matches)).toEqual([`signal:${b.id}`]);
    expect(preview.total).toBe(1);
    expect(keysOf(preview.matches)).not.toContain(`signal:${a.id}`);
  });

  it('the contracts themselves are still matched: a record has no status, only its signal was withdrawn', async () => {
    const created = await createAlertRule(
      store,
      {
        account,
        name: 'Fornecedor',
        type: 'entity',
        nifs: [WATCHED_SUPPLIER.nif],
        sourceTypes: ['procurement_contract'],
      },
      NOW,
    );
    await match();
    const contractIds = (await store.readChanges(0, 1_000)).filter((e) => e.kind === 'contract').map((e) => e.id);
    const contracts = await store.getContracts([...new Set(contractIds)]);
    expect(contracts.map((c) => c.source_id).sort()).toEqual(['A', 'B', 'C', 'D']);
    expect(keysOf(await matchesOf(created.id))).toEqual(contracts.map((c) => `procurement_contract:${c.id}`).sort());
  });
});
