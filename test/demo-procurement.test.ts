import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../src/admin/migrate.js';
import { loadDemo } from '../src/demo/load-demo.js';
import { municipalityDesignation } from '../src/demo/procurement/entities.js';
import {
  generateProcurement,
  PENDING_CLOSED,
  PENDING_OPEN,
  type ProcurementChunk,
} from '../src/demo/procurement/generate.js';
import { NifFamily } from '../src/demo/procurement/nif.js';
import { ocdsMethod } from '../src/ingest/base/procedure.js';
import { readCpvs } from '../src/ingest/cpv.js';
import { readMunicipalities } from '../src/ingest/municipalities.js';
import { DIRECT_AWARD_CEILINGS, regimeOfMunicipality } from '../src/lib/direct-award-regime.js';
import type { ContractInput, EntityInput, Party } from '../src/store/procurement-records.js';
import { openTestStore } from './helpers/backend.js';

const MUNICIPALITIES = readMunicipalities();
const CPVS = readCpvs();
const TODAY = new Date('2026-03-15T10:00:00Z');
const TODAY_ISO = '2026-03-15';

const chunksOf = (contracts: number, seed = 42, today = TODAY, chunkSize?: number) => [
  ...generateProcurement({ seed, today, contracts, municipalities: MUNICIPALITIES, cpvs: CPVS, chunkSize }),
];
const digest = (chunks: ProcurementChunk[]) => createHash('sha256').update(JSON.stringify(chunks)).digest('hex');
const all = <K extends keyof ProcurementChunk>(chunks: ProcurementChunk[], key: K): ProcurementChunk[K] =>
  chunks.flatMap((c) => c[key] as never[]) as ProcurementChunk[K];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** An independent check of the Portuguese tax number: weights 9…2 on the first eight digits, mod 11. */
function validNif(nif: string): boolean {
  if (!/^\d{9}$/.test(nif)) return false;
  const sum = [...nif.slice(0, 8)].reduce((s, d, i) => s + Number(d) * (9 - i), 0);
  const check = 11 - (sum % 11);
  return (check >= 10 ? 0 : check) === Number(nif[8]);
}

let big: ProcurementChunk[];
let contracts: ContractInput[];
beforeAll(() => {
  big = chunksOf(20_000);
  contracts = all(big, 'contracts');
});

describe('generateProcurement: determinism', () => {
  it('gives identical chunks for the same seed and month, whatever the day', () => {
    const a = chunksOf(3000);
    expect(digest(chunksOf(3000, 42, new Date('2026-03-01T00:00:00Z')))).toBe(digest(a));
    expect(digest(chunksOf(3000, 42, new Date('2026-03-31T23:59:59Z')))).toBe(digest(a));
  });

  it('gives other data for another seed', () => {
    const a = all(chunksOf(2000), 'contracts');
    const b = all(chunksOf(2000, 7), 'contracts');
    expect(digest(chunksOf(2000, 7))).not.toBe(digest(chunksOf(2000)));
    const differing = a.filter((c, i) => c.price_eur !== b[i].price_eur || c.object !== b[i].object);
    expect(differing.length).toBeGreaterThan(a.length * 0.9);
  });

  it('streams in chunks of the requested size, each with the entities it introduces', () => {
    const chunks = chunksOf(12_345, 42, TODAY, 5000);
    expect(chunks.map((c) => c.contracts.length)).toEqual([5000, 5000, 2345]);
    const seen = new Set<string>();
    for (const chunk of chunks) {
      for (const e of chunk.entities) {
        expect(seen.has(e.nif)).toBe(false);
        seen.add(e.nif);
      }
      for (const c of chunk.contracts)
        for (const p of [...c.buyers, ...c.suppliers, ...c.competitors]) expect(seen.has(p.nif)).toBe(true);
      for (const a of chunk.announcements) expect(seen.has(a.buyer.nif)).toBe(true);
    }
  });

  it('makes contract k the same contract whatever the number of contracts (prefix property)', () => {
    const small = chunksOf(1000);
    const larger = chunksOf(2000);
    expect(all(larger, 'contracts').slice(0, 1000)).toEqual(all(small, 'contracts'));
    const smallIds = new Set(all(small, 'contracts').map((c) => c.source_id));
    const ofSmall = <T extends { contract_source_id: string }>(xs: T[]) =>
      xs.filter((x) => smallIds.has(x.contract_source_id));
    expect(ofSmall(all(larger, 'amendments'))).toEqual(all(small, 'amendments'));
    const notices = new Set(all(small, 'announcements').map((a) => a.source_id));
    expect(all(larger, 'announcements').filter((a) => notices.has(a.source_id))).toEqual(all(small, 'announcements'));
    const entities = new Map(all(larger, 'entities').map((e) => [e.nif, e]));
    for (const e of all(small, 'entities')) expect(entities.get(e.nif)).toEqual(e);
    // And 100 000 is a prefix of 1 000 000: contract 19 999 of a 20 000 run is contract 19 999 of a longer one.
    expect(all(chunksOf(20_001), 'contracts')[19_999]).toEqual(contracts[19_999]);
  });

  it('keeps source ids stable and unique', () => {
    expect(contracts.map((c) => c.source_id).slice(0, 3)).toEqual(['demo-c-1', 'demo-c-2', 'demo-c-3']);
    expect(new Set(contracts.map((c) => c.source_id)).size).toBe(contracts.length);
    const notices = all(big, 'announcements').map((a) => a.source_id);
    expect(new Set(notices).size).toBe(notices.length);
    const amendments = all(big, 'amendments').map((a) => a.source_id);
    expect(new Set(amendments).size).toBe(amendments.length);
    for (const c of contracts) expect(c.source).toBe('demo');
  });
});

describe('generateProcurement: parties', () => {
  it('makes every municipality a buyer under its real tax number, as the municipality', () => {
    const entities = new Map(all(big, 'entities').map((e) => [e.nif, e]));
    const buyers = new Set(contracts.flatMap((c) => c.buyers.map((b) => b.nif)));
    for (const m of MUNICIPALITIES) {
      expect(buyers.has(m.nif), m.name).toBe(true);
      expect(entities.get(m.nif)).toEqual({
        nif: m.nif,
        name: municipalityDesignation(m),
        kind: 'municipality',
        country: 'PT',
        municipality_id: m.id,
      });
    }
    // Even a small run has them all: the first 308 contracts go to each municipality once.
    expect(new Set(all(chunksOf(308), 'contracts').map((c) => c.buyers[0].nif)).size).toBe(308);
    expect(municipalityDesignation({ code: '1312', name: 'Porto' })).toBe('Município do Porto');
    expect(municipalityDesignation({ code: '1106', name: 'Lisboa' })).toBe('Município de Lisboa');
    expect(municipalityDesignation({ code: '4201', name: 'Lagoa' })).toBe('Município de Lagoa (Açores)');
  });

  it('gives valid, unique tax numbers: 5 for companies, 6 for public bodies, and never a municipality’s', () => {
    const entities: EntityInput[] = all(big, 'entities');
    const municipal = new Set(MUNICIPALITIES.map((m) => m.nif));
    const names = new Map<string, string>();
    const parties: Party[] = [
      ...entities,
      ...contracts.flatMap((c) => [...c.buyers, ...c.suppliers, ...c.competitors]),
      ...all(big, 'announcements').map((a) => a.buyer),
    ];
    for (const p of parties) {
      expect(validNif(p.nif), p.nif).toBe(true);
      expect(names.get(p.nif) ?? p.name, p.nif).toBe(p.name);
      names.set(p.nif, p.name);
    }
    for (const e of entities) {
      if (e.kind === 'municipality') expect(municipal.has(e.nif)).toBe(true);
      else expect(municipal.has(e.nif)).toBe(false);
      if (e.kind === 'company') expect(e.nif[0]).toBe('5');
      if (e.kind === 'public_body') expect(e.nif[0]).toBe('6');
      if (e.kind === 'person') expect(e.nif[0]).toBe('3');
    }
    const kinds = new Set(entities.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['company', 'municipality', 'person', 'public_body']);
    expect(entities.some((e) => /^(Freguesia|União das Freguesias) de /.test(e.name))).toBe(true);
    expect(entities.some((e) => /^Comunidade Intermunicipal /.test(e.name))).toBe(true);
    expect(entities.some((e) => /, E\.M\./.test(e.name))).toBe(true);
    expect(entities.some((e) => /(, Lda\.?|Unipessoal Lda|, S\.?A\.?)$/.test(e.name))).toBe(true);
  });

  it('numbers a family of tax numbers without collisions', () => {
    const family = new NifFamily(1, 'test', ['590', '591']);
    const nifs = Array.from({ length: 50_000 }, (_, i) => family.nif(i));
    expect(new Set(nifs).size).toBe(nifs.length);
    for (const nif of nifs.slice(0, 2000)) expect(validNif(nif) && /^59[01]/.test(nif)).toBe(true);
    expect(() => family.nif(family.capacity)).toThrow();
  });

  it('reuses suppliers with a skewed distribution, some local to the buyer’s district', () => {
    const wins = new Map<string, number>();
    for (const c of contracts) for (const s of c.suppliers) wins.set(s.nif, (wins.get(s.nif) ?? 0) + 1);
    const counts = [...wins.values()].sort((a, b) => b - a);
    expect(counts.length).toBeGreaterThan(3000);
    expect(counts.length).toBeLessThan(contracts.length * 0.7);
    expect(counts[0]).toBeGreaterThan(50);
    const top1pc = counts.slice(0, Math.ceil(counts.length / 100)).reduce((s, x) => s + x, 0);
    expect(top1pc / contracts.length).toBeGreaterThan(0.08);
    // Bigger buyers have more contracts.
    const byBuyer = new Map<string, number>();
    for (const c of contracts) byBuyer.set(c.buyers[0].nif, (byBuyer.get(c.buyers[0].nif) ?? 0) + 1);
    const nifOf = (code: string) => MUNICIPALITIES.find((m) => m.code === code)?.nif as string;
    expect(byBuyer.get(nifOf('1106')) ?? 0).toBeGreaterThan(10 * (byBuyer.get(nifOf('4901')) ?? 0)); // Lisboa, Corvo
  });
});

describe('generateProcurement: what, how, how much', () => {
  it('has a heavy-tailed price distribution with a plausible median', () => {
    const prices = contracts.map((c) => c.price_eur as number);
    for (const p of prices) expect(p).toBeGreaterThan(0);
    const m = median(prices);
    expect(m).toBeGreaterThan(3_000);
    expect(m).toBeLessThan(40_000);
    expect(Math.max(...prices) / m).toBeGreaterThan(100);
    const sorted = [...prices].sort((a, b) => b - a);
    const top1pc = sorted.slice(0, prices.length / 100).reduce((s, x) => s + x, 0);
    expect(top1pc / prices.reduce((s, x) => s + x, 0)).toBeGreaterThan(0.3);
  });

  const directAwardsSmaller =
    'makes direct awards smaller than public tenders, within their regime’s limits unless a material criterion applies';
  it(directAwardsSmaller, () => {
    const of = (label: string) => contracts.filter((c) => c.procedure_type === label);
    const direct = of('Ajuste Direto Regime Geral');
    const tenders = of('Concurso público');
    expect(direct.length).toBeGreaterThan(contracts.length * 0.4);
    expect(tenders.length).toBeGreaterThan(contracts.length * 0.08);
    expect(median(direct.map((c) => c.price_eur as number)) * 5).toBeLessThan(
      median(tenders.map((c) => c.price_eur as number)),
    );
    // A council of the Azores or Madeira is held to its region's ceilings, which its repeated and split awards reach
    // over the CCP's (docs/integrity.md, "On the demo data"); any other buyer to the CCP's.
    const regimeOf = new Map(MUNICIPALITIES.map((m) => [m.nif, regimeOfMunicipality(m)]));
    for (const c of direct) {
      if (c.legal_basis?.startsWith('Artigo 24.º')) continue;
      const ceilings = DIRECT_AWARD_CEILINGS[regimeOf.get(c.buyers[0].nif) ?? 'national'];
      const works = c.contract_types[0] === 'Empreitadas de obras públicas';
      expect(c.price_eur).toBeLessThan(works ? ceilings.works : ceilings.goods_services);
    }
    for (const c of of('Consulta Prévia')) {
      expect(c.price_eur).toBeLessThan(c.contract_types[0] === 'Empreitadas de obras públicas' ? 150_000 : 75_000);
    }
  });

  it('gives base prices at least the price, and competitors to competitive procedures only', () => {
    for (const c of contracts) {
      if (c.base_price_eur !== null) expect(c.base_price_eur).toBeGreaterThanOrEqual(c.price_eur as number);
      if (c.ocds_method === 'open' || c.ocds_method === 'selective') expect(c.base_price_eur).not.toBeNull();
      if (c.ocds_method === 'direct') expect(c.competitors).toEqual([]);
      else {
        expect(c.competitors.length).toBeGreaterThan(0);
        for (const s of c.suppliers) expect(c.competitors.map((p) => p.nif)).toContain(s.nif);
      }
    }
  });

  it('maps procedures to OCDS methods as the BASE importer does, in a realistic mix', () => {
    const mix = new Map<string, number>();
    for (const c of contracts) {
      expect(c.ocds_method).toBe(ocdsMethod(c.procedure_type));
      mix.set(c.procedure_type as string, (mix.get(c.procedure_type as string) ?? 0) + 1);
    }
    expect(mix.size).toBeGreaterThanOrEqual(8);
    expect(mix.get('Consulta Prévia') ?? 0).toBeGreaterThan(contracts.length * 0.1);
    expect(mix.get('Ao abrigo de acordo-quadro (art.º 259.º)') ?? 0).toBeGreaterThan(0);
    for (const c of contracts) {
      if (/acordo-quadro/.test(c.procedure_type as string))
        expect(c.framework_agreement).toMatch(/^AQ \d+\/\d{4} - Acordo-quadro/);
      else expect(c.framework_agreement).toBeNull();
    }
  });

  it('names a buyer in an object with the article its name takes: "da União das Freguesias", "do Município"', () => {
    const objects = [...contracts.map((c) => c.object), ...all(big, 'announcements').map((a) => a.object)];
    const feminine = /\b(?:Freguesia|União das Freguesias|Câmara Municipal)\b/;
    const named = objects.filter((o) => /\b(?:Município|Freguesia|União das Freguesias)\b/.test(o));
    expect(named.some((o) => /\bda União das Freguesias\b/.test(o))).toBe(true);
    for (const o of named) {
      expect(o).not.toMatch(new RegExp(`\\b(?:do|ao) ${feminine.source}`));
      expect(o).not.toMatch(/\b(?:da|à) Município\b/);
    }
  });

  it('uses CPV codes of the vocabulary that fit the contract type', () => {
    const vocabulary = new Set(CPVS.map((c) => c.code));
    const divisions = new Map<string, Set<string>>();
    for (const c of contracts) {
      for (const cpv of c.cpvs) expect(vocabulary.has(cpv), cpv).toBe(true);
      const type = c.contract_types[0];
      if (!divisions.has(type)) divisions.set(type, new Set());
      divisions.get(type)?.add(c.cpvs[0].slice(0, 2));
    }
    expect([...(divisions.get('Empreitadas de obras públicas') ?? [])]).toEqual(['45']);
    const services = divisions.get('Aquisição de serviços') ?? new Set();
    for (const d of ['71', '77', '79', '90']) expect(services.has(d)).toBe(true);
    const goods = divisions.get('Aquisição de bens móveis') ?? new Set();
    for (const d of ['30', '34', '09']) expect(goods.has(d)).toBe(true);
    expect(services.has('45') || goods.has('45')).toBe(false);
  });

  it('dates contracts over the six years before the month, awarded ≤ signed ≤ published', () => {
    const firstOfMonth = '2026-03-01';
    let closed = 0;
    for (const c of contracts) {
      const { awarded_on: a, signed_on: s, published_on: p, closed_on: x } = c as unknown as Record<string, string>;
      expect(p < firstOfMonth && p >= '2020-02-01').toBe(true);
      expect(a <= s && s <= p).toBe(true);
      if (x !== null) {
        closed++;
        expect(x > s && x < firstOfMonth).toBe(true);
        expect(c.effective_price_eur).not.toBeNull();
      } else expect(c.effective_price_eur).toBeNull();
      expect(c.execution_days).toBeGreaterThan(0);
    }
    expect(closed).toBeGreaterThan(contracts.length * 0.3);
    const years = new Set(contracts.map((c) => c.published_on?.slice(0, 4)));
    expect([...years].sort()).toEqual(['2020', '2021', '2022', '2023', '2024', '2025', '2026']);
  });

  it('executes mostly in the buyer’s municipality, sometimes in neighbours, sometimes nowhere in particular', () => {
    const ids = new Map(MUNICIPALITIES.map((m) => [m.nif, m.id]));
    const none = contracts.filter((c) => c.municipality_ids.length === 0).length;
    const several = contracts.filter((c) => c.municipality_ids.length > 1).length;
    const own = contracts.filter(
      (c) => ids.has(c.buyers[0].nif) && c.municipality_ids.includes(ids.get(c.buyers[0].nif) as number),
    ).length;
    const byMunicipalities = contracts.filter((c) => ids.has(c.buyers[0].nif)).length;
    expect(own / byMunicipalities).toBeGreaterThan(0.85);
    expect(none).toBeGreaterThan(contracts.length * 0.03);
    expect(several).toBeGreaterThan(contracts.length * 0.03);
    for (const c of contracts.filter((x) => x.municipality_ids.length > 0)) {
      expect(c.execution_places_text?.split('; ').length).toBe(c.municipality_ids.length);
    }
  });
});

describe('generateProcurement: announcements and amendments', () => {
  it('announces open and selective procedures before their award, and keeps some open after today', () => {
    const announcements = all(big, 'announcements');
    const byNotice = new Map(announcements.map((a) => [a.source_id, a]));
    for (const c of contracts) {
      const announced =
        c.ocds_method === 'open' ||
        (c.ocds_method === 'selective' && !/acordo-quadro/.test(c.procedure_type as string));
      expect(c.announcement_number !== null).toBe(announced);
      if (c.announcement_number === null) continue;
      const a = byNotice.get(c.announcement_number);
      expect(a?.buyer).toEqual(c.buyers[0]);
      expect((a?.deadline_on as string) < (c.awarded_on as string)).toBe(true);
    }
    for (const a of announcements) expect((a.published_on as string) <= (a.deadline_on as string)).toBe(true);
    const open = announcements.filter((a) => (a.deadline_on as string) >= TODAY_ISO);
    expect(open.length).toBeGreaterThan(150);
    expect(open.length).toBeLessThanOrEqual(PENDING_OPEN);
    expect(announcements.length - open.length).toBeGreaterThan(PENDING_CLOSED);
    // Open all month long, mostly: at the month's last day most are still open.
    expect(announcements.filter((a) => (a.deadline_on as string) >= '2026-03-31').length).toBeGreaterThan(150);
    // Even without contracts there are announcements, open and closed.
    const alone = all(chunksOf(0), 'announcements');
    expect(alone.length).toBe(PENDING_OPEN + PENDING_CLOSED);
  });

  it('amends about 5% of contracts, after signing, with their previous price chained', () => {
    const amendments = all(big, 'amendments');
    const byId = new Map(contracts.map((c) => [c.source_id, c]));
    const amended = new Set(amendments.map((a) => a.contract_source_id));
    expect(amended.size / contracts.length).toBeGreaterThan(0.03);
    expect(amended.size / contracts.length).toBeLessThan(0.08);
    let up = 0;
    let down = 0;
    for (const chunk of big) {
      const inChunk = new Set(chunk.contracts.map((c) => c.source_id));
      for (const a of chunk.amendments) expect(inChunk.has(a.contract_source_id)).toBe(true);
    }
    const last = new Map<string, number>();
    for (const a of amendments) {
      const c = byId.get(a.contract_source_id) as ContractInput;
      expect((a.date as string) > (c.signed_on as string) && (a.date as string) < '2026-03-01').toBe(true);
      expect(a.previous_price_eur).toBe(last.get(c.source_id) ?? c.price_eur);
      last.set(c.source_id, a.new_price_eur as number);
      if ((a.new_price_eur as number) > (a.previous_price_eur as number)) up++;
      if ((a.new_price_eur as number) < (a.previous_price_eur as number)) down++;
      expect(a.reason).toMatch(/[a-zà-ú]/);
    }
    expect(up).toBeGreaterThan(down);
    expect(down).toBeGreaterThan(0);
  });
});

describe('loadDemo with procurement', () => {
  it('writes contracts, announcements, amendments and entities once, and nothing on a second run', {
    timeout: 120_000,
  }, async () => {
    const store = (await openTestStore()).store;
    try {
      await migrate(store);
      const first = await loadDemo(store, { seed: 42, today: TODAY, contracts: 1500 });
      const p = first.procurement;
      expect(p.generated).toBe(1500);
      expect(p.contracts).toEqual({ inserted: 1500, updated: 0, unchanged: 0 });
      expect(p.announcements.inserted).toBeGreaterThan(PENDING_OPEN + PENDING_CLOSED);
      expect(p.amendments.inserted).toBeGreaterThan(0);
      expect(p.entities.inserted).toBeGreaterThan(308);

      const second = await loadDemo(store, { seed: 42, today: new Date('2026-03-28T00:00:00Z'), contracts: 1500 });
      for (const key of ['contracts', 'announcements', 'amendments', 'entities'] as const) {
        expect(second.procurement[key].inserted + second.procurement[key].updated, key).toBe(0);
      }
      expect(second.procurement.contracts.unchanged).toBe(1500);

      const lisboa = MUNICIPALITIES.find((m) => m.code === '1106');
      const entity = await store.getEntity(lisboa?.nif as string);
      expect(entity).toMatchObject({ name: 'Município de Lisboa', kind: 'municipality', municipality: '1106' });
      expect(entity?.contracts_as_buyer).toBeGreaterThan(0);
      expect(entity?.total_as_buyer_eur).toBeGreaterThan(0);

      // More contracts later: only the new ones are written.
      const more = await loadDemo(store, { seed: 42, today: TODAY, contracts: 2000 });
      expect(more.procurement.contracts).toEqual({ inserted: 500, updated: 0, unchanged: 1500 });
    } finally {
      await store.close();
    }
  });
});
