/**
 * The project's copy of the real Portal BASE contracts of January–February 2024 (data/real/base-2024-jan-feb/,
 * data/SOURCES.md), imported once into a fresh store through the real CLI command, as a `.json.gz`. What is expected
 * is read from the file itself here, independently of the importer: counts, the refused records' faults, the
 * suppliers the portal anonymised ("RGPD - <name>"), and contracts field by field.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import type { BaseImportReport } from '../src/ingest/base/import-base.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { isValidNif } from '../src/lib/nif.js';
import type { ContractRecord } from '../src/store/procurement-records.js';
import { openTestStore } from './helpers/backend.js';
import { runDataCommand as cli } from './helpers/data-cli.js';
import { collectPages, startTestApp, type TestApp } from './helpers/test-app.js';

const FILE = new URL('../data/real/base-2024-jan-feb/contratos-2024-01-02.json.gz', import.meta.url);
const SOURCE: Record<string, any>[] = JSON.parse(gunzipSync(readFileSync(FILE)).toString('utf8'));
const MUNICIPALITIES = readMunicipalities();

const isAnonymised = (party: string) => /^RGPD\b/.test(party);
const anonymisedRows = SOURCE.filter((r) => (r.adjudicatarios ?? []).some(isAnonymised));

/**
 * What is wrong with a record, judged from the file alone: a "NUMBER - name" whose number, all digits, is no valid
 * NIF (a number with dashes, "52-0955532 - American Geophysical Union", is a foreign id), or a price below 0.
 */
function faultsOf(r: Record<string, any>): string[] {
  const faults: string[] = [];
  for (const party of [...(r.adjudicante ?? []), ...(r.adjudicatarios ?? [])] as string[]) {
    const nif = (party.includes(' - ') ? party.split(' - ')[0] : party.split('-')[0]).trim();
    if (/^\d+$/.test(nif) && (nif.length !== 9 || !isValidNif(nif))) faults.push(`NIF ${nif}`);
  }
  if (typeof r.precoContratual === 'number' && r.precoContratual < 0) faults.push('negative price');
  return faults;
}

/** `DD/MM/YYYY` → `YYYY-MM-DD`. */
const isoDay = (d: string) => d.split('/').reverse().join('-');

let app: TestApp;
let report: BaseImportReport;
let byId: Map<string, ContractRecord>;

beforeAll(async () => {
  const { store } = await openTestStore();
  await migrate(store);
  await store.saveMunicipalities(MUNICIPALITIES);
  report = JSON.parse(await cli(store, ['--json', 'import', 'base', FILE.pathname]));
  const contracts = await store.listContracts({ source: 'base' }, { limit: 30_000 });
  byId = new Map(contracts.map((c) => [c.source_id, c]));
  app = await startTestApp({ store });
}, 180_000);

afterAll(async () => {
  await app?.close();
});

describe('importing the real BASE contracts of January–February 2024 (.json.gz)', () => {
  it('reads every record: accepted and refused add up to the file, and every accepted one is stored', () => {
    expect(SOURCE).toHaveLength(21_748);
    expect(report.rows_read).toBe(SOURCE.length);
    expect(report.accepted + report.rejected.length).toBe(SOURCE.length);
    // 35 before foreign ids with dashes were read whole (data/SOURCES.md): 2 negative prices, 31 bad NIFs.
    expect(report.rejected).toHaveLength(33);
    expect(byId.size).toBe(report.accepted);
    expect(report.written.contracts.inserted).toBe(report.accepted);
  });

  it('refuses exactly the records that are invalid, each named by its id with its reason', () => {
    const invalid = SOURCE.filter((r) => faultsOf(r).length > 0);
    expect(report.rejected.map((r) => r.source_id).sort()).toEqual(invalid.map((r) => r.idcontrato).sort());
    const sourceById = new Map(SOURCE.map((r) => [r.idcontrato as string, r]));
    for (const refused of report.rejected) {
      expect(refused.reason).not.toBe('');
      for (const fault of faultsOf(sourceById.get(refused.source_id as string) ?? {})) {
        if (fault.startsWith('NIF')) expect(refused.reason).toContain(fault);
        else expect(refused.reason).toMatch(/negative|below|less than|< ?0/i);
      }
      expect(byId.has(refused.source_id as string)).toBe(false);
    }
    expect(invalid.filter((r) => r.precoContratual < 0)).toHaveLength(2);
  });

  const anonymisedSuppliers =
    'keeps the contracts whose suppliers the portal anonymised, the supplier marked withheld, no entity "RGPD"';
  it(anonymisedSuppliers, async () => {
    expect(anonymisedRows).toHaveLength(2_547);
    const kept = anonymisedRows.filter((r) => byId.has(r.idcontrato));
    expect(kept).toHaveLength(anonymisedRows.filter((r) => faultsOf(r).length === 0).length);
    for (const r of kept) {
      const suppliers = byId.get(r.idcontrato)?.suppliers ?? [];
      const published = (r.adjudicatarios as string[]).filter(isAnonymised);
      const withheld = suppliers.filter((s) => s.withheld);
      expect(withheld.map((s) => s.name)).toEqual(published.map((p) => p.replace(/^RGPD\s*-\s*/, '').trim()));
      for (const s of withheld) expect(s.nif).toBeNull();
      for (const s of suppliers) expect(s.name).not.toMatch(/^RGPD\b/);
    }
    expect(await collectPages(app, '/v1/procurement/entities?q=RGPD&limit=100')).toEqual([]);
    const entities = await app.store.listEntities({}, { limit: 30_000 });
    expect(entities.length).toBe(report.written.entities.inserted);
    expect(entities.filter((e) => /RGPD/i.test(`${e.nif} ${e.name}`))).toEqual([]);

    const one = byId.get(kept[0].idcontrato) as ContractRecord;
    const served = await app.get(`/v1/procurement/contracts/${one.id}`);
    expect(served.status).toBe(200);
    const supplier = (served.json as any).suppliers[0];
    expect(supplier).toEqual({
      nif: null,
      name: kept[0].adjudicatarios[0].replace(/^RGPD\s*-\s*/, '').trim(),
      withheld: true,
      nif_kind: null,
      kind_assumed: null,
      note: null,
    });
  });

  it('stores contracts field by field as the file has them', () => {
    const accepted = SOURCE.filter((r) => faultsOf(r).length === 0);
    const picks = [0, 1, 2_000, 9_999, 15_000, accepted.length - 1].map((i) => accepted[i]);
    picks.push(anonymisedRows[0], accepted.find((r) => (r.adjudicatarios ?? []).length > 1) as Record<string, any>);
    for (const r of picks) {
      const c = byId.get(r.idcontrato) as ContractRecord;
      expect(c, r.idcontrato).toBeDefined();
      expect(c.object).toBe(r.objectoContrato.trim());
      expect(c.price_eur).toBe(r.precoContratual);
      expect(c.published_on).toBe(isoDay(r.dataPublicacao));
      expect(c.signed_on).toBe(r.dataCelebracaoContrato ? isoDay(r.dataCelebracaoContrato) : null);
      expect(c.procedure_type).toBe(r.tipoprocedimento);
      const glued = (p: { nif: string | null; name: string; withheld: boolean }) =>
        p.withheld ? `RGPD - ${p.name}` : p.nif === null ? `- - ${p.name}` : `${p.nif} - ${p.name}`;
      expect(c.suppliers.map(glued)).toEqual(r.adjudicatarios.map((p: string) => p.replace(/\s+-\s+/, ' - ').trim()));
      expect(c.buyers.map(glued)).toEqual(r.adjudicante.map((p: string) => p.replace(/\s+-\s+/, ' - ').trim()));
    }
  });

  it("reads the portal's HTML line breaks in an object as line breaks, never as markup", () => {
    const broken = SOURCE.filter((r) => /<br\s*\/?>/i.test(r.objectoContrato) && faultsOf(r).length === 0);
    expect(broken.length).toBeGreaterThan(400);
    for (const r of broken) {
      const c = byId.get(r.idcontrato) as ContractRecord;
      expect(c.object, r.idcontrato).not.toMatch(/<br/i);
      expect(c.object.replace(/\n/g, ''), r.idcontrato).toBe(r.objectoContrato.replace(/<br\s*\/?>/gi, '').trim());
    }
  });

  it('keeps the contracts whose place names no municipality, without one', () => {
    expect(report.places_unresolved.count).toBeGreaterThan(0);
    for (const example of report.places_unresolved.examples) {
      const c = byId.get(example.source_id) as ContractRecord;
      expect(c.execution_places_text).toContain(example.text);
      const all = SOURCE.find((r) => r.idcontrato === example.source_id)?.localExecucao as string[];
      if (all.length === 1) expect(c.municipalities).toEqual([]);
    }
    const abroad = SOURCE.filter((r) => faultsOf(r).length === 0 && (r.localExecucao ?? []).length === 1).filter((r) =>
      /Distrito não determinado/.test(r.localExecucao[0]),
    );
    expect(abroad.length).toBeGreaterThan(0);
    for (const r of abroad) expect(byId.get(r.idcontrato)?.municipalities).toEqual([]);
  });

  it('changes nothing when the same file is imported again', async () => {
    const again: BaseImportReport = JSON.parse(await cli(app.store, ['--json', 'import', 'base', FILE.pathname]));
    expect(again.accepted).toBe(report.accepted);
    expect(again.written.contracts).toMatchObject({ inserted: 0, updated: 0, unchanged: report.accepted });
    expect(again.written.entities).toMatchObject({ inserted: 0, updated: 0 });
  });
});
