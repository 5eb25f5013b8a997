/**
 * The explorer's integrity flags in a real browser (Chromium through playwright-core), on both stores (its data
 * read is new): a buyer's panel against procurement_entity_red_flags and procurement_red_flags, and the map of the
 * share of each municipality's contracts flagged per type against the integrity signals the store holds — those
 * the demo's detection wrote, and those this file writes, one per contract a buyer's red flags flag and type,
 * placed as detection places a contract's signals (detect/places.ts) — over every contract of the same data,
 * placed the same way. Real contracts (the
 * fixture under source `base`, and one buyer with more than the panel's 1 000) beside the demo's generated ones.
 * Screenshots go to screenshots/explorer/ (docs/explorer.md).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Places } from '../src/detect/places.js';
import type { DatePosition } from '../src/store/procurement-queries.js';
import type { ContractInput, ContractRecord } from '../src/store/procurement-records.js';
import type { SignalInput } from '../src/store/signal-records.js';
import { launchChromium } from './helpers/chromium.js';
import { consoleUser } from './helpers/console.js';
import { explorerContexts, openExplorePage, signedInGet } from './helpers/explore-page.js';
import { freePort } from './helpers/free-port.js';
import { buildFixture, contractInput, SUPPLIERS, withCheckDigit } from './helpers/procurement-fixture.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

declare const document: any;

const SHOTS = join(import.meta.dirname, '..', 'screenshots', 'explorer');
/** The fewest contracts a municipality needs for a share (docs/explorer.md, Integrity). */
const MIN_CONTRACTS = 20;
const LISBOA = '500051070';
/** A public body with more contracts than the buyer panel assesses (1 000), executed in Faro, 11 in Loulé. */
const BIG_BUYER = { nif: withCheckDigit('60099001'), name: 'Serviços Intermunicipalizados do Algarve' };
const pt = (v: number, digits: number) => new Intl.NumberFormat('pt-PT', { maximumFractionDigits: digits }).format(v);

let t: TestApp;
let base: string;
let browser: Browser;
let desktop: BrowserContext;
let phone: BrowserContext;
let places: Places;
/** The integrity signals written, as the map must count them: by source, then municipality id, then type. */
const written = new Map<string, Map<number | null, Map<string, number>>>();
/** The keys of the signals this file wrote. */
const writtenKeys: string[] = [];
const pageErrors: string[] = [];

function bigBuyerContracts(faroId: number, louleId: number): ContractInput[] {
  return Array.from({ length: 1001 }, (_, i) =>
    contractInput(`BIG-${i}`, {
      object: `Aquisição de material de escritório ${i}`,
      procedure_type: 'Ajuste Direto Regime Geral',
      ocds_method: 'direct',
      contract_types: ['Aquisição de bens móveis'],
      cpvs: ['30192000'],
      buyers: [BIG_BUYER],
      suppliers: [SUPPLIERS[i % 3]],
      price_eur: 900 + (i % 50),
      published_on: new Date(Date.UTC(2024, 0, 1) + (i % 58) * 86_400_000).toISOString().slice(0, 10),
      execution_places_text: i % 100 === 0 ? 'Portugal, Faro, Loulé' : 'Portugal, Faro, Faro',
      municipality_ids: [i % 100 === 0 ? louleId : faroId],
    }),
  );
}

/** An integrity signal as detection writes them: one per flagged contract and type, placed as its other signals. */
function integritySignal(c: ContractRecord, type: string, status: SignalInput['status'] = 'active'): SignalInput {
  const placed = places.place(
    c.municipalities,
    c.buyers.map((b) => b.nif),
    c.execution_places_text,
  );
  return {
    key: `integrity:${type}:${c.source}:${c.source_id}`,
    origin: 'detector',
    case: null,
    type,
    family: 'integrity',
    municipality_id: placed.municipality_id,
    title_pt: `Indicador de integridade: ${c.object}`,
    title_en: `Integrity flag: ${c.object}`,
    summary_pt: null,
    summary_en: null,
    why_it_matters_pt: null,
    why_it_matters_en: null,
    next_step_pt: null,
    stage: 'contracted',
    status,
    value_tier: null,
    confidence: 0.8,
    deadline_date: null,
    event_date: c.published_on,
    amount_eur: c.price_eur,
    location_text: placed.location_text,
    actionability: 'monitor',
    evidence: [],
    subject: { cpv: [], nifs: [], indicator: null, indicator_value: null },
  };
}

/** Writes a signal per contract and type flagged in these buyers' red flags, and one withdrawn, which never counts. */
async function writeIntegritySignals(buyers: string[]): Promise<void> {
  const byId = new Map<number, string[]>();
  for (const nif of new Set(buyers)) {
    const answer = await api(`/v1/procurement/entities/${nif}/red-flags`);
    for (const c of answer.flagged_contracts) byId.set(c.id, c.flagged_types);
  }
  const flagged = [...byId].map(([id, types]) => ({ id, types }));
  const contracts = new Map((await t.store.getContracts(flagged.map((f) => f.id))).map((c) => [c.id, c]));
  const signals: SignalInput[] = [];
  for (const f of flagged) {
    const c = contracts.get(f.id) as ContractRecord;
    for (const type of f.types) {
      signals.push(integritySignal(c, type));
    }
  }
  expect(new Set(signals.map((s) => s.key.split(':')[2]))).toEqual(new Set(['base', 'demo']));
  // A flag detection withdrew (the data no longer support it): on a contract no type flags, so it would show.
  const clean = (await t.store.listContracts({ buyer: LISBOA, source: 'demo' }, { limit: 600 })).find(
    (c) => !flagged.some((f) => f.id === c.id),
  ) as ContractRecord;
  signals.push(integritySignal(clean, 'single_bid', 'withdrawn'));
  await t.store.writeSignals({ signals, now: '2026-11-01T00:00:00Z' });
  writtenKeys.push(...signals.map((x) => x.key));
  await countStoredSignals();
}

/**
 * What the map must count: every integrity signal the store holds but the withdrawn, by source, municipality and
 * type — those written above and those the demo's own detection wrote for its contracts.
 */
async function countStoredSignals(): Promise<void> {
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const page = await t.store.listSignals({ family: 'integrity' }, { after, limit: 1000 });
    for (const s of page) {
      if (s.status === 'withdrawn') continue;
      const source = s.key.split(':')[2];
      const bySource = written.get(source) ?? new Map();
      written.set(source, bySource);
      const byType = bySource.get(s.municipality_id) ?? new Map();
      bySource.set(s.municipality_id, byType);
      byType.set(s.type, (byType.get(s.type) ?? 0) + 1);
    }
    const last = page.at(-1);
    if (page.length < 1000 || !last) return;
    after = { at: last.last_seen_at ?? '', id: last.id };
  }
}

/**
 * Every contract of a source placed as detection places its signals: contracts per municipality id (null: none);
 * `ids` collects their ids per municipality id.
 */
async function placedContracts(
  source: string,
  ids = new Map<number | null, number[]>(),
): Promise<Map<number | null, number>> {
  const out = new Map<number | null, number>();
  let after: DatePosition | undefined;
  for (;;) {
    const page = await t.store.listContracts({ source }, { after, limit: 1000 });
    for (const c of page) {
      const id = places.place(
        c.municipalities,
        c.buyers.map((b) => b.nif),
        c.execution_places_text,
      ).municipality_id;
      out.set(id, (out.get(id) ?? 0) + 1);
      ids.set(id, [...(ids.get(id) ?? []), c.id]);
    }
    const last = page.at(-1);
    if (page.length < 1000 || !last) return out;
    after = { date: last.published_on, id: last.id };
  }
}

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  t = await startTestApp({ baseUrl: base });
  const municipalities = await t.store.listMunicipalities();
  places = new Places(municipalities);
  const idOf = (name: string) => municipalities.find((m) => m.name === name)?.id as number;
  const fixture = buildFixture({ contracts: 400, today: '2025-07-01', source: 'base' });
  await t.store.writeProcurement({
    entities: [...fixture.entities, { ...BIG_BUYER, kind: 'public_body', country: 'PT', municipality_id: null }],
    contracts: [...fixture.contracts, ...bigBuyerContracts(idOf('Faro'), idOf('Loulé'))],
    announcements: fixture.announcements,
    amendments: fixture.amendments,
  });
  await t.store.refreshProcurementRollups();
  const fixtureBuyers = fixture.entities.map((e) => e.nif);
  await writeIntegritySignals([...fixtureBuyers, '500051062', '501306099']);
  await t.app.http.listen({ host: '127.0.0.1', port });
  browser = await launchChromium();
  const user = await consoleUser(t, { accountId: t.accounts.premium, email: 'flags@premium.example', role: 'member' });
  ({ desktop, phone } = await explorerContexts(browser, base, user));
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(context: BrowserContext, path: string): Promise<Page> {
  const page = await openExplorePage(context, `${base}${path}`, path, pageErrors);
  return page;
}

async function api(v1: string): Promise<any> {
  const res = await t.get(v1);
  expect(res.status, v1).toBe(200);
  return res.json;
}

/** Every control has a label a screen reader reads. */
async function unlabelled(page: Page): Promise<string[]> {
  return page.$$eval('select, input:not([type=hidden]), textarea', (controls) =>
    controls
      .filter((c: any) => c.labels.length === 0 && !c.getAttribute('aria-label') && !c.getAttribute('aria-labelledby'))
      .map((c: any) => c.outerHTML.slice(0, 80)),
  );
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll).toBeLessThanOrEqual(client);
}

describe("a buyer's integrity panel", () => {
  it('shows every type with its counts per state and the flagged contracts, as the API answers', {
    timeout: 60_000,
  }, async () => {
    const answer = await api(`/v1/procurement/entities/${LISBOA}/red-flags`);
    const entity = await api(`/v1/procurement/entities/${LISBOA}`);
    expect(answer.contracts_flagged).toBeGreaterThan(0);
    const page = await open(desktop, `/explore/entities/${LISBOA}`);
    await page.locator('#buyer-flags[data-ready]').waitFor();
    const panel = page.locator('#integrity-flags');
    expect(await panel.locator('figcaption').innerText()).toContain('never an accusation');
    expect(await unlabelled(page)).toEqual([]);
    // Every type: its label and code linked to its method on /docs, its counts per state.
    const rows = await panel
      .locator('table tbody tr')
      .evaluateAll((trs) => trs.map((tr: any) => [...tr.children].map((c: any) => c.textContent)));
    expect(rows).toEqual(
      answer.by_type.map((x: any) => [
        `${x.label_en} (${x.code})`,
        pt(x.counts.flagged, 0),
        pt(x.counts.not_flagged, 0),
        pt(x.counts.not_assessable, 0),
      ]),
    );
    const methods = await panel
      .locator('table tbody th a')
      .evaluateAll((as) => as.map((a: any) => a.getAttribute('href')));
    expect(methods).toEqual(answer.by_type.map((x: any) => `/docs#integrity-${x.type}`));
    // The flagged contracts, newest first, each linked to its page.
    const listed = await panel
      .locator('details.flagged-contract')
      .evaluateAll((ds) => ds.map((d: any) => Number(d.getAttribute('data-contract'))));
    expect(listed).toEqual(answer.flagged_contracts.map((c: any) => c.id));
    const first = answer.flagged_contracts[0];
    const item = panel.locator(`details.flagged-contract[data-contract="${first.id}"]`);
    expect(await item.locator(`a[href="/explore/contracts/${first.id}"]`).textContent()).toBe(first.object);
    // Lisboa buys with generated contracts and real ones: the picture says which, each flagged contract too.
    const real = answer.flagged_contracts.some((c: any) => !c.synthetic);
    expect(entity.synthetic).toBe(true);
    expect(await panel.locator('.data-mark').innerText()).toContain(
      real ? 'Real and generated data' : 'Generated data',
    );
    if (real)
      expect(await item.locator('.card-mark').innerText()).toBe(first.synthetic ? 'generated data' : 'real data');
    expect(await panel.locator('.truncated').count()).toBe(answer.truncated ? 1 : 0);

    // Opened, a flagged contract shows each type that flagged it: why, the values, thresholds and cited contracts.
    const flags = await api(`/v1/procurement/contracts/${first.id}/red-flags`);
    await item.locator('summary').click({ position: { x: 4, y: 8 } });
    await item.locator('.evidence-list[data-ready]').waitFor();
    const shown = await item.locator('.evidence').evaluateAll((es) => es.map((e: any) => e.getAttribute('data-type')));
    expect(shown).toEqual(first.flagged_types);
    for (const a of flags.assessments.filter((x: any) => x.state === 'flagged')) {
      const block = item.locator(`.evidence[data-type="${a.type}"]`);
      const text = await block.innerText();
      expect(text).toContain(a.reason);
      for (const [name, value] of Object.entries(a.thresholds))
        expect(text).toContain(`${name.replaceAll('_', ' ')} ${pt(value as number, 4)}`);
      for (const [name, value] of Object.entries(a.values)) {
        const shownValue = value === null ? 'not in the record' : typeof value === 'number' ? pt(value, 4) : value;
        expect(text).toContain(`${name.replaceAll('_', ' ')} ${shownValue}`);
      }
      const cites = await block
        .locator('a[href^="/explore/contracts/"]')
        .evaluateAll((as) => as.map((x: any) => x.getAttribute('href')));
      expect(cites).toEqual(a.cites.map((id: number) => `/explore/contracts/${id}`));
      if (a.legal_basis) expect(text).toContain(a.legal_basis);
      expect(await block.locator('a.method').getAttribute('href')).toBe(`/docs#integrity-${a.type}`);
    }
    await page.screenshot({ path: join(SHOTS, 'buyer-flags-1280.png'), fullPage: true });

    // A year: the address keeps it, and the panel answers what the API answers for that period.
    const year = answer.flagged_contracts.findLast((c: any) => c.published_on).published_on.slice(0, 4);
    await page.locator('#flags-year').selectOption(year);
    await page.locator(`#buyer-flags[data-ready="${year}-01-01|${year}-12-31"]`).waitFor();
    expect(new URL(page.url()).search).toBe(`?from=${year}-01-01&to=${year}-12-31`);
    const inYear = await api(`/v1/procurement/entities/${LISBOA}/red-flags?from=${year}-01-01&to=${year}-12-31`);
    expect(await page.locator('details.flagged-contract').count()).toBe(inYear.flagged_contracts.length);
    expect(await page.locator('#integrity-flags figcaption').innerText()).toContain(
      `${pt(inYear.contracts_assessed, 0)} contracts published from ${year}-01-01 to ${year}-12-31 assessed`,
    );
    // A period the API refuses (422) says why, as the API says it.
    await page.locator('#flags-from').fill(`${year}-12-31`);
    await page.locator('#flags-to').fill(`${year}-01-01`);
    await page.locator('#flags-to').dispatchEvent('change');
    await page.locator(`#buyer-flags[data-ready="${year}-12-31|${year}-01-01"] .error`).waitFor();
    const refused = await t.get(`/v1/procurement/entities/${LISBOA}/red-flags?from=${year}-12-31&to=${year}-01-01`);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(await page.locator('#buyer-flags .error').innerText()).toContain(refused.json.detail ?? refused.json.title);
    await page.close();
  });

  it('says when the period held more contracts than it assessed', { timeout: 60_000 }, async () => {
    const answer = await api(`/v1/procurement/entities/${BIG_BUYER.nif}/red-flags`);
    expect(answer.truncated).toBe(true);
    const page = await open(desktop, `/explore/entities/${BIG_BUYER.nif}`);
    await page.locator('#buyer-flags[data-ready]').waitFor();
    const note = await page.locator('#integrity-flags .truncated').innerText();
    expect(note).toContain(`only the newest ${pt(answer.contracts_assessed, 0)} were assessed`);
    expect(await page.locator('#integrity-flags .data-mark').innerText()).toContain('Real data');
    await page.close();
  });

  it('is not shown for an entity that never buys', async () => {
    const supplier = SUPPLIERS[0].nif;
    const page = await open(desktop, `/explore/entities/${supplier}`);
    await page.locator('#view[data-ready]').waitFor();
    expect(await page.locator('#buyer-flags').count()).toBe(0);
    await page.close();
  });

  it('links each type to its method on /docs: fields, thresholds and legal basis', async () => {
    const page = await open(desktop, `/explore/entities/${LISBOA}`);
    await page.locator('#buyer-flags[data-ready]').waitFor();
    const link = page.locator('#integrity-flags table tbody th a').nth(3);
    const href = (await link.getAttribute('href')) as string;
    await link.click();
    await page.waitForURL(`${base}${href}`);
    const type = href.split('#integrity-')[1];
    const row = await page.locator(`tr#integrity-${type}`).innerText();
    const flags = await api(`/v1/procurement/entities/${LISBOA}/red-flags`);
    const entry = flags.by_type.find((x: any) => x.type === type);
    expect(row).toContain(type);
    expect(row).toContain(`${entry.code} v${entry.version}`);
    // Every type of the catalogue has its row.
    for (const x of flags.by_type) expect(await page.locator(`tr#integrity-${x.type}`).count()).toBe(1);
    await page.close();
  });

  it('at 390 px: no sideways scroll, and the flagged contracts read in the page’s scroll, not a box’s', async () => {
    const page = await open(phone, `/explore/entities/${LISBOA}`);
    await page.locator('#buyer-flags[data-ready]').waitFor();
    await page
      .locator('details.flagged-contract summary')
      .first()
      .click({ position: { x: 4, y: 8 } });
    await page.locator('details.flagged-contract .evidence-list[data-ready]').first().waitFor();
    await noSidewaysScroll(page);
    // The list shows all it holds, an opened contract's evidence included: nothing is left to a scroll within it.
    const list = await page.locator('ul.flagged-contracts').evaluate((ul) => [ul.scrollHeight, ul.clientHeight]);
    expect(list[0]).toBeLessThanOrEqual(list[1] + 1);
    await page.screenshot({ path: join(SHOTS, 'buyer-flags-390.png'), fullPage: true });
    await page.close();
  });
});

describe('an integrity signal', () => {
  it('is generated data when its contract is, by the source its key names', async () => {
    const signals = await t.store.getSignalsByKeys(writtenKeys);
    for (const source of ['base', 'demo']) {
      const one = signals.find((s) => s.key.split(':')[2] === source);
      expect(one, source).toBeDefined();
      expect((await api(`/v1/signals/${one?.id}`)).synthetic, source).toBe(source === 'demo');
    }
  });
});

describe('the integrity map', () => {
  /** The map's table: municipality code → [contracts, flagged, share] as shown. */
  async function mapTable(page: Page): Promise<Map<string, string[]>> {
    const rows = await page.$$eval('#integrity-map tbody tr', (trs) =>
      trs.map((tr: any) => [
        tr.querySelector('a').getAttribute('href').split('/').pop(),
        ...[...tr.children].slice(2).map((c: any) => c.textContent),
      ]),
    );
    return new Map(rows.map(([code, ...cells]) => [code, cells]));
  }

  for (const [data, source] of [
    ['generated', 'demo'],
    ['real', 'base'],
  ]) {
    it(`draws each municipality's share of ${data} contracts flagged, never mixing the other data`, {
      timeout: 90_000,
    }, async () => {
      const ids = new Map<number | null, number[]>();
      const contracts = await placedContracts(source, ids);
      const flags = written.get(source) ?? new Map();
      const totals = new Map<string, number>();
      for (const byType of flags.values()) for (const [k, n] of byType) totals.set(k, (totals.get(k) ?? 0) + n);
      // The type that flags the most of these data is shown first.
      const type = [...totals].sort((a, b) => b[1] - a[1])[0][0];
      const page = await open(desktop, `/explore/integrity?data=${data}`);
      await page.locator(`.stage[data-ready="${data}|${type}"]`).waitFor();
      expect(await page.locator('#integrity-map .data-mark').innerText()).toContain(
        data === 'real' ? 'Real data' : 'Generated data',
      );
      const codes = new Map((await t.store.listMunicipalities()).map((m) => [m.id, m.code]));
      const shown = await mapTable(page);
      const fills = await page.$$eval('#integrity-map path.m', (ps) =>
        Object.fromEntries(ps.map((p: any) => [p.getAttribute('data-code'), p.getAttribute('fill')])),
      );
      // The legend's colours in order: none flagged (0 %), then the classes of the shares above 0, low to high.
      const legend = await page.$$eval('#integrity-map ul.legend [data-color]', (ss) =>
        ss.map((x: any) => x.getAttribute('data-color')),
      );
      const zeroFill = legend[0];
      // 0 % stands apart from the lowest class of the shares above it (neither is the other's near twin).
      if (legend.length > 2) expect(colourDistance(zeroFill, legend[1])).toBeGreaterThan(60);
      const classOf = (code: string) => legend.indexOf(fills[code]);
      // Whether the type can judge a municipality's contracts: its newest ones, assessed by their red flags.
      const answer = await (
        await signedInGet(page.context(), `${base}/explore/api/integrity/shares?data=${data}`)
      ).json();
      const sampleOf = async (id: number) => {
        const newest = (ids.get(id) ?? []).sort((a, b) => b - a).slice(0, answer.sample);
        let missed = 0;
        for (const c of newest) {
          const flagsOf = await api(`/v1/procurement/contracts/${c}/red-flags`);
          if (flagsOf.assessments.find((a: any) => a.type === type).state === 'not_assessable') missed++;
        }
        return { sampled: newest.length, missed };
      };
      const shares: [string, number][] = [];
      let tooFew = 0;
      let judged = 0;
      let unassessable = 0;
      let checked = 0;
      for (const [id, count] of contracts) {
        if (id === null) continue;
        const code = codes.get(id) as string;
        const flagged = flags.get(id)?.get(type) ?? 0;
        const place = answer.places.find((p: any) => p.municipality === code);
        // The sample's count, against the red flags of the municipality's newest contracts (a few of them).
        if (count >= MIN_CONTRACTS && (checked < 4 || code === '1106')) {
          checked++;
          const { sampled, missed } = await sampleOf(id);
          expect([place.sampled, place.not_assessable[type] ?? 0], code).toEqual([sampled, missed]);
        }
        const mostlyMissed = count >= MIN_CONTRACTS && (place.not_assessable[type] ?? 0) * 2 > place.sampled;
        const share =
          count < MIN_CONTRACTS
            ? 'too few contracts'
            : mostlyMissed
              ? `not assessable (${pt(place.not_assessable[type], 0)} of its ${pt(place.sampled, 0)} newest contracts)`
              : `${pt((flagged / count) * 100, 1)} %`;
        expect(shown.get(code), code).toEqual([pt(count, 0), pt(flagged, 0), share]);
        if (count < MIN_CONTRACTS) {
          tooFew++;
          expect(fills[code]).toBe('#c9ced4');
        } else if (mostlyMissed) {
          unassessable++;
          expect(fills[code], code).toBe('url(#hatch-unassessable)');
        } else {
          judged++;
          if (flagged === 0) expect(fills[code], code).toBe(zeroFill);
          else expect(classOf(code), code).toBeGreaterThan(0);
          shares.push([code, flagged / count]);
        }
      }
      expect((await page.locator('#integrity-map ul.legend').innerText()).replace(/\s+/g, ' ')).toContain(
        `not assessable on these data (${unassessable})`,
      );
      expect(shown.size).toBe([...contracts.keys()].filter((id) => id !== null).length);
      expect(tooFew).toBeGreaterThan(0);
      expect(judged).toBeGreaterThan(0);
      // A higher share never gets a lower class.
      for (const [a, x] of shares)
        for (const [b, y] of shares) if (x < y) expect(classOf(a)).toBeLessThanOrEqual(classOf(b));
      expect(new Set(shares.map(([code]) => classOf(code))).size).toBeGreaterThan(data === 'generated' ? 2 : 1);
      // Municipalities without a contract of these data are hatched "no contracts".
      const none = Object.entries(fills).filter(([code]) => !shown.has(code));
      expect(none.length).toBe(308 - shown.size);
      for (const [, fill] of none) expect(fill).toBe('url(#hatch-missing)');
      const lisbonId = [...codes].find(([, c]) => c === '1106')?.[0] as number;
      await page.locator('#integrity-map path.m[data-code="1106"]').hover({ timeout: 5000 });
      const lisbon = contracts.get(lisbonId) as number;
      const flaggedInLisbon = flags.get(lisbonId)?.get(type) ?? 0;
      expect(await page.locator('.tip').innerText()).toContain(
        `${pt(flaggedInLisbon, 0)} of ${pt(lisbon, 0)} contracts`,
      );
      // The other types: each with its total, linked to its method and to its own map.
      const types = await page.$$eval('#integrity-types tbody tr', (trs) =>
        trs.map((tr: any) => [tr.querySelector('a').getAttribute('href'), tr.children[1].textContent]),
      );
      for (const [href, flagged] of types) {
        const key = href.split('#integrity-')[1];
        expect(flagged, key).toBe(pt(totals.get(key) ?? 0, 0));
      }
      if (data === 'generated') {
        expect(await unlabelled(page)).toEqual([]);
        await page.screenshot({ path: join(SHOTS, 'integrity-1280.png'), fullPage: true });
        // Another type, chosen: the address keeps it.
        const other = [...totals.keys()].find((k) => k !== type) as string;
        await page.locator('#type').selectOption(other);
        await page.locator(`.stage[data-ready="generated|${other}"]`).waitFor();
        expect(new URL(page.url()).searchParams.get('type')).toBe(other);
        expect(await page.locator('#integrity-map .notes a').getAttribute('href')).toBe(`/docs#integrity-${other}`);
      }
      await page.close();
    });
  }

  it('answers its data link as the map shows it, and at 390 px has no sideways scroll', async () => {
    const page = await open(phone, '/explore/integrity?data=generated');
    await page.locator('.stage[data-ready]').waitFor();
    await noSidewaysScroll(page);
    await page.screenshot({ path: join(SHOTS, 'integrity-390.png'), fullPage: true });
    const href = (await page.locator('#integrity-map details.data a.json').getAttribute('href')) as string;
    expect(href).toBe('/explore/api/integrity/shares?data=generated');
    const answer = await (await signedInGet(page.context(), `${base}${href}`)).json();
    expect(answer).toMatchObject({ data: 'generated', source: 'demo', synthetic: true, min_contracts: MIN_CONTRACTS });
    await page.close();
  });
});

describe('the integrity map while its answer is out', () => {
  it('reads Loading rather than a blank page, and the map replaces it', async () => {
    // The answer held until the page has been looked at: a first answer of a data version takes seconds.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await desktop.route('**/explore/api/integrity/shares*', async (route) => {
      await held;
      await route.continue();
    });
    try {
      const page = await open(desktop, '/explore/integrity?data=generated');
      await page.locator('.stage[aria-busy="true"]').waitFor();
      // What the box's ::before says (a string: the tests' types have no DOM).
      const loadingText = () =>
        page.evaluate(`getComputedStyle(document.querySelector('.stage'), '::before').content`) as Promise<string>;
      expect(await loadingText()).toBe('"Loading…"');
      expect(await page.locator('#integrity-map').count()).toBe(0);
      release();
      await page.locator('.stage[data-ready]:not([aria-busy])').waitFor();
      expect(await page.locator('#integrity-map').count()).toBe(1);
      expect(await loadingText()).toBe('none');
      await page.close();
    } finally {
      release();
      await desktop.unroute('**/explore/api/integrity/shares*');
    }
  });
});

describe('a type that cannot judge most contracts', () => {
  it('draws their municipalities "not assessable on these data", not 0 %, and says why as the red flags do', {
    timeout: 90_000,
  }, async () => {
    // Short submission period needs a notice: the big buyer's direct awards in Faro name none.
    const type = 'short_submission_period';
    const faro = (await t.store.listMunicipalities()).find((m) => m.name === 'Faro');
    const big = (await t.store.listContracts({ buyer: BIG_BUYER.nif }, { limit: 1 }))[0];
    const reason = (await api(`/v1/procurement/contracts/${big.id}/red-flags`)).assessments.find(
      (a: any) => a.type === type,
    );
    expect(reason.state).toBe('not_assessable');

    for (const context of [desktop, phone]) {
      const page = await open(context, `/explore/integrity?data=real&type=${type}`);
      await page.locator(`.stage[data-ready="real|${type}"]`).waitFor();
      const fill = await page.locator(`#integrity-map path.m[data-code="${faro?.code}"]`).getAttribute('fill');
      expect(fill).toBe('url(#hatch-unassessable)');
      const row = page.locator('#integrity-map tbody tr', { hasText: 'Faro' }).first();
      expect(await row.textContent()).toContain('not assessable');
      // The reason given is the one the red flags give most often over the contracts assessed: a red flags' own.
      const answer = await (await signedInGet(page.context(), `${base}/explore/api/integrity/shares?data=real`)).json();
      const { reason: given, reason_pt: givenPt } = answer.types.find((x: any) => x.type === type);
      expect(await page.locator('#integrity-map .notes').innerText()).toContain(`“${given}”`);
      // In both languages, as one assessment gives it; a type that gave no reason has none in either.
      expect(await givenByRedFlags(type, given, givenPt)).toBe(true);
      for (const t of answer.types) expect(t.reason_pt === null, t.type).toBe(t.reason === null);
      expect(await page.locator('#integrity-map .data-mark').innerText()).toContain('Real data');
      if (context === desktop) {
        await page.locator(`#integrity-map path.m[data-code="${faro?.code}"]`).hover({ timeout: 5000 });
        expect(await page.locator('.tip').innerText()).toContain('not assessable on these data');
        await page.screenshot({ path: join(SHOTS, 'integrity-unassessable-1280.png'), fullPage: true });
      } else {
        await noSidewaysScroll(page);
        await page.screenshot({ path: join(SHOTS, 'integrity-unassessable-390.png'), fullPage: true });
      }
      await page.close();
    }
  });
});

describe('a red flag reason', () => {
  it('is shown in English where the answer has it, else in Portuguese marked as such, as a signal text is', {
    timeout: 60_000,
  }, async () => {
    const type = 'short_submission_period';
    const path = `/explore/integrity?data=real&type=${type}`;
    const shown = async () => {
      const page = await open(desktop, path);
      await page.locator(`.stage[data-ready="real|${type}"]`).waitFor();
      const note = page.locator('#integrity-map .notes');
      const said = {
        summary: await page.locator('p.unassessable').innerText(),
        notes: await note.innerText(),
        portuguese: await page.locator('p.unassessable [lang="pt"], #integrity-map .notes [lang="pt"]').allInnerTexts(),
      };
      await page.close();
      return said;
    };
    const answer = await (await signedInGet(desktop, `${base}/explore/api/integrity/shares?data=real`)).json();
    const { reason, reason_pt: reasonPt } = answer.types.find((x: any) => x.type === type);
    expect(reason).not.toBe(reasonPt);

    const english = await shown();
    expect(english.summary).toContain(`“${reason}”`);
    expect(english.notes).toContain(`“${reason}”`);
    expect(english.portuguese).toEqual([]);

    // An answer without the English reason (as an imported signal may lack its English title): the Portuguese one,
    // marked lang="pt" in the summary and in the notes. Routing the request turns off the browser's cache.
    await desktop.route('**/explore/api/integrity/shares*', async (route) => {
      const response = await route.fetch();
      const json = await response.json();
      for (const x of json.types) if (x.type === type) x.reason = null;
      await route.fulfill({ response, json });
    });
    try {
      const portuguese = await shown();
      expect(portuguese.summary).toContain(`“${reasonPt}”`);
      expect(portuguese.notes).toContain(`“${reasonPt}”`);
      expect(portuguese.portuguese).toEqual([reasonPt, reasonPt]);
    } finally {
      await desktop.unroute('**/explore/api/integrity/shares*');
    }
  });
});

/** Whether the red flags of some real contract give this reason for the type, in English and in Portuguese. */
async function givenByRedFlags(type: string, reason: string, reasonPt: string): Promise<boolean> {
  for (const c of await t.store.listContracts({ source: 'base' }, { limit: 200 })) {
    const flags = await api(`/v1/procurement/contracts/${c.id}/red-flags`);
    const a = flags.assessments.find((x: any) => x.type === type);
    if (a.reason === reason && a.reason_pt === reasonPt) return true;
  }
  return false;
}

/** How far apart two `#rrggbb` colours are: the distance of their RGB values (0 to 441). */
function colourDistance(a: string, b: string): number {
  const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

describe('the explorer', () => {
  it('raised no script error on these pages', () => {
    // The refused period (a 422) is logged by the browser as any failed load: that one is expected, and only that.
    expect(pageErrors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  });
});
