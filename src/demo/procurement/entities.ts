/**
 * The demo's parties. Buyers: every municipality under its real tax number and the name `Município de X`, plus
 * parishes, municipal companies, municipalised services and inter-municipal bodies with synthetic numbers.
 * Suppliers: pools by sector, one national and one per district, from which contracts draw with a Zipf-like
 * law (a few suppliers win many contracts, most win one or two); competitive procedures take their bidders from
 * the top of the national pools (tenderers.ts), and the integrity patterns a few firms from its far end
 * (`outsider`). A supplier is a pure function of (seed, sector, pool, rank), so the suppliers of contract k do not
 * depend on how many contracts are generated.
 */
import type { EntityInput, EntityKind, Party } from '../../store/procurement-records.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { hashSeed, Rng } from '../random.js';
import type { BuyerKind, Sector } from './catalogue.js';
import { acronym, COINED, PLACE_WORDS, parishName, parishPlace, personName, randomAcronym, SURNAMES } from './names.js';
import { NifFamily } from './nif.js';

export interface Buyer {
  party: Party;
  kind: BuyerKind;
  entity: EntityInput;
  /** Index (in the municipality list) of the municipality the buyer belongs to. */
  home: number;
  /** Municipality indices an inter-municipal body covers (its own home for others). */
  members: number[];
  /** `do concelho de X`, `da freguesia de Y`… for object texts. */
  area: string;
  weight: number;
}

export interface Place {
  municipality: MunicipalityRecord;
  /** Parish places of the municipality, for object texts. */
  places: string[];
  /** Indices of the other municipalities of the same NUTS III region (its "neighbours"). */
  neighbours: number[];
  district: number;
}

/** Shares of contracts by kind of buyer. */
const BUYER_SHARE: Record<BuyerKind, number> = {
  municipality: 0.77,
  parish: 0.1,
  company: 0.06,
  smas: 0.03,
  intermunicipal: 0.04,
};
/** Volume grows slightly less than population: small municipalities buy more per head. */
const SIZE_EXPONENT = 0.85;

/** Inter-municipal bodies by NUTS III (Grande Lisboa and Península de Setúbal form one metropolitan area). */
const INTERMUNICIPAL: Record<string, string> = {
  'Alto Minho': 'Comunidade Intermunicipal do Alto Minho',
  Cávado: 'Comunidade Intermunicipal do Cávado',
  Ave: 'Comunidade Intermunicipal do Ave',
  'Área Metropolitana do Porto': 'Área Metropolitana do Porto',
  'Alto Tâmega e Barroso': 'Comunidade Intermunicipal do Alto Tâmega e Barroso',
  'Tâmega e Sousa': 'Comunidade Intermunicipal do Tâmega e Sousa',
  Douro: 'Comunidade Intermunicipal do Douro',
  'Terras de Trás-os-Montes': 'Comunidade Intermunicipal das Terras de Trás-os-Montes',
  'Região de Aveiro': 'Comunidade Intermunicipal da Região de Aveiro',
  'Região de Coimbra': 'Comunidade Intermunicipal da Região de Coimbra',
  'Região de Leiria': 'Comunidade Intermunicipal da Região de Leiria',
  'Viseu Dão Lafões': 'Comunidade Intermunicipal Viseu Dão Lafões',
  'Beira Baixa': 'Comunidade Intermunicipal da Beira Baixa',
  'Beiras e Serra da Estrela': 'Comunidade Intermunicipal das Beiras e Serra da Estrela',
  Oeste: 'Comunidade Intermunicipal do Oeste',
  'Médio Tejo': 'Comunidade Intermunicipal do Médio Tejo',
  'Lezíria do Tejo': 'Comunidade Intermunicipal da Lezíria do Tejo',
  'Grande Lisboa': 'Área Metropolitana de Lisboa',
  'Península de Setúbal': 'Área Metropolitana de Lisboa',
  'Alentejo Litoral': 'Comunidade Intermunicipal do Alentejo Litoral',
  'Baixo Alentejo': 'Comunidade Intermunicipal do Baixo Alentejo',
  'Alto Alentejo': 'Comunidade Intermunicipal do Alto Alentejo',
  'Alentejo Central': 'Comunidade Intermunicipal do Alentejo Central',
  Algarve: 'AMAL - Comunidade Intermunicipal do Algarve',
  'Região Autónoma dos Açores': 'Associação de Municípios da Região Autónoma dos Açores',
  'Região Autónoma da Madeira': 'Associação de Municípios da Região Autónoma da Madeira',
};

const KNOWN_BODIES = new Set(Object.values(INTERMUNICIPAL));

/**
 * Municipality names that take an article (`Município do Porto`, `da Maia`), as the municipalities designate
 * themselves in BASE; the others are `Município de X`. Lagoa (Açores) is told apart from Lagoa (Algarve).
 */
const ARTICLE: Record<string, string> = {
  ...Object.fromEntries(
    (
      '0111 0112 0309 0503 0509 0605 0607 0907 1004 1010 1011 1108 1115 1306 ' +
      '1318 1407 1412 1506 3101 3105 3107 4204 4205 4302 4501 4602 4701'
    )
      .split(' ')
      .map((code) => [code, 'da']),
  ),
  ...Object.fromEntries(
    '0504 0701 0911 1005 1104 1206 1307 1312 1406 1410 1417 1504 1507 1510 1708 3103 3106 3201 4202 4901'
      .split(' ')
      .map((code) => [code, 'do']),
  ),
  '4601': 'das',
  '4801': 'das',
};

/** `Município de Águeda`, `Município do Porto`, `Município de Lagoa (Açores)`. */
export function municipalityDesignation(m: Pick<MunicipalityRecord, 'code' | 'name'>): string {
  const name = m.code === '4201' ? `${m.name} (Açores)` : m.name;
  return `Município ${ARTICLE[m.code] ?? 'de'} ${name}`;
}

const COMPANY_NAMES: ((m: string, acr: string) => string)[] = [
  (m) => `Águas de ${m}, E.M., S.A.`,
  (m) => `${m} Habita - Empresa Municipal de Habitação, E.M.`,
  (m, acr) => `EMA${acr} - Empresa Municipal de Ambiente de ${m}, E.M., S.A.`,
  (m) => `${m} Cultura e Desporto, E.M.`,
  (m) => `Empresa Municipal de Turismo de ${m}, E.M.`,
  (m, acr) => `GEM${acr} - Gestão de Equipamentos Municipais de ${m}, E.M.`,
];

export interface PartyBook {
  buyers: Buyer[];
  /** Buyers of kind municipality, in the order of the municipality list. */
  municipalityBuyers: Buyer[];
  places: Place[];
  districts: string[];
  /** Municipality indices by district index. */
  byDistrict: number[][];
}

export function buildBuyers(municipalities: readonly MunicipalityRecord[], seed: number): PartyBook {
  const publicNifs = publicFamily(seed);
  const companyNifs = companyFamily(seed);
  let nextPublic = 0;
  let nextCompany = 0;

  const districts = [...new Set(municipalities.map((m) => m.district))];
  const byDistrict: number[][] = districts.map(() => []);
  const byNuts = new Map<string, number[]>();
  municipalities.forEach((m, i) => {
    byDistrict[districts.indexOf(m.district)].push(i);
    const group = INTERMUNICIPAL[m.nuts_iii] ?? m.nuts_iii;
    byNuts.set(group, [...(byNuts.get(group) ?? []), i]);
  });

  const raw: { buyer: Omit<Buyer, 'weight'>; size: number }[] = [];
  const places: Place[] = [];
  const municipalityBuyers: Buyer[] = [];
  const size = (m: MunicipalityRecord) => Math.max(m.population_2021, 300) ** SIZE_EXPONENT;
  municipalities.forEach((m, i) => {
    const rng = new Rng(hashSeed(seed, 'buyers', m.code));
    const group = INTERMUNICIPAL[m.nuts_iii] ?? m.nuts_iii;
    const neighbours = (byNuts.get(group) ?? []).filter((j) => j !== i);
    const parishCount = Math.min(10, Math.max(2, Math.round(2 + m.population_2021 / 25_000)));
    const parishNames: string[] = [];
    for (let p = 0; p < parishCount; p++) {
      let name = parishName(rng, p === 0 ? m.name : null);
      if (parishNames.includes(name)) name = `${name} (${m.name})`;
      parishNames.push(name);
    }
    places.push({
      municipality: m,
      places: parishNames.map(parishPlace),
      neighbours,
      district: districts.indexOf(m.district),
    });

    const designation = municipalityDesignation(m);
    const municipality: Omit<Buyer, 'weight'> = {
      party: { nif: m.nif, name: designation },
      kind: 'municipality',
      entity: { nif: m.nif, name: designation, kind: 'municipality', country: 'PT', municipality_id: m.id },
      home: i,
      members: [i],
      area: `do concelho de ${m.name}`,
    };
    raw.push({ buyer: municipality, size: size(m) });
    for (const name of parishNames) {
      const nif = publicNifs.nif(nextPublic++);
      raw.push({
        buyer: publicBody(nif, name, 'parish', i, [i], `da freguesia de ${parishPlace(name)}`),
        size: size(m) / parishCount,
      });
    }
    const companies =
      m.population_2021 > 60_000 ? rng.int(1, 2) : rng.next() < (m.population_2021 > 20_000 ? 0.3 : 0.08) ? 1 : 0;
    const used = new Set<number>();
    for (let c = 0; c < companies; c++) {
      let t = rng.int(0, COMPANY_NAMES.length - 1);
      while (used.has(t)) t = (t + 1) % COMPANY_NAMES.length;
      used.add(t);
      const name = COMPANY_NAMES[t](m.name, acronym(m.name));
      const nif = companyNifs.nif(nextCompany++);
      raw.push({
        buyer: {
          party: { nif, name },
          kind: 'company',
          entity: { nif, name, kind: 'company', country: 'PT', municipality_id: null },
          home: i,
          members: [i],
          area: `do concelho de ${m.name}`,
        },
        size: size(m),
      });
    }
    if (rng.next() < (m.population_2021 > 40_000 ? 0.35 : 0.04)) {
      const name = `Serviços Municipalizados de Água e Saneamento de ${m.name}`;
      raw.push({
        buyer: publicBody(publicNifs.nif(nextPublic++), name, 'smas', i, [i], `do concelho de ${m.name}`),
        size: size(m),
      });
    }
    municipalityBuyers.push(municipality as Buyer);
  });
  for (const [group, members] of byNuts) {
    const name = KNOWN_BODIES.has(group) ? group : `Comunidade Intermunicipal de ${group}`;
    const population = members.reduce((s, j) => s + municipalities[j].population_2021, 0);
    raw.push({
      buyer: publicBody(
        publicNifs.nif(nextPublic++),
        name,
        'intermunicipal',
        members[0],
        members,
        'dos municípios associados',
      ),
      size: population ** 0.5,
    });
  }

  const totals = new Map<BuyerKind, number>();
  for (const { buyer, size } of raw) totals.set(buyer.kind, (totals.get(buyer.kind) ?? 0) + size);
  const buyers = raw.map(({ buyer, size }) => {
    const full = buyer as Buyer;
    full.weight = (BUYER_SHARE[buyer.kind] * size) / (totals.get(buyer.kind) ?? 1);
    return full;
  });
  return { buyers, municipalityBuyers, places, districts, byDistrict };
}

function publicBody(
  nif: string,
  name: string,
  kind: BuyerKind,
  home: number,
  members: number[],
  area: string,
): Omit<Buyer, 'weight'> {
  return {
    party: { nif, name },
    kind,
    entity: { nif, name, kind: 'public_body', country: 'PT', municipality_id: null },
    home,
    members,
    area,
  };
}

/** Public bodies: the book's parishes, services and inter-municipal bodies first, then the schemes' parishes. */
function publicFamily(seed: number): NifFamily {
  return new NifFamily(seed, 'public', ['690', '691', '692', '693', '694', '695', '696', '697', '698', '699']);
}
/** The first public-body number of the schemes' parishes: far above the book's (a few thousand). */
const SCHEME_PARISH_OFFSET = 500_000;

/**
 * Parish n of the integrity schemes (schemes.ts): a parish of municipality `home` that no other contract names, so
 * that the year the scheme gives it is all it bought. Its tax number is the n-th after the book's public bodies.
 */
export function schemeParish(seed: number, home: number, n: number): Buyer {
  const rng = new Rng(hashSeed(seed, 'scheme-parish', n));
  const name = parishName(rng, null);
  const body = publicBody(publicFamily(seed).nif(SCHEME_PARISH_OFFSET + n), name, 'parish', home, [home], '');
  return { ...body, area: `da freguesia de ${parishPlace(name)}`, weight: 0 };
}

/** Companies (municipal companies first, then suppliers). */
function companyFamily(seed: number): NifFamily {
  return new NifFamily(seed, 'company', ['590', '591', '592', '593', '594', '595', '596', '597', '598', '599']);
}

// ── Suppliers ────────────────────────────────────────────────────────────────────────────────────────────

/** Pool sizes: a sector's national suppliers, and its suppliers of one district. */
const NATIONAL_POOL = 3000;
const DISTRICT_POOL = 600;
/**
 * Zipf-like law of a supplier's rank r in its pool: P(r) ∝ (r + c)^−s. With s = 1.3, 20 000 contracts go to
 * ≈ 10 000 suppliers (three quarters of them with one contract), 1 000 000 to ≈ 130 000, and the busiest
 * supplier of a sector wins a few thousand.
 */
const ZIPF_EXPONENT = 1.3;
const NATIONAL_SHAPE = 2;
const DISTRICT_SHAPE = 1.5;
/** The municipal companies take the first company numbers. */
const SUPPLIER_OFFSET = 10_000;

/** Some sectors include self-employed people. */
const PERSON_SHARE: Partial<Record<Sector, number>> = {
  arts: 0.35,
  legal: 0.25,
  engineering: 0.08,
  training: 0.2,
  consulting: 0.05,
};
/** Sectors served nationally only (no local pools). */
const NATIONAL_ONLY: Partial<Record<Sector, true>> = { insurance: true, telecom: true };
const NATIONAL_POOL_OF: Partial<Record<Sector, number>> = { insurance: 25, telecom: 12 };

export interface Supplier {
  party: Party;
  entity: EntityInput;
}

export class SupplierBook {
  readonly #seed: number;
  readonly #companies: NifFamily;
  readonly #persons: NifFamily;
  readonly #districts: readonly string[];
  readonly #districtTowns: readonly string[][];
  readonly #cache = new Map<number, Supplier>();

  constructor(seed: number, book: PartyBook) {
    this.#seed = seed;
    this.#companies = companyFamily(seed);
    this.#persons = new NifFamily(seed, 'person', ['3']);
    this.#districts = book.districts;
    this.#districtTowns = book.byDistrict.map((ids) => ids.map((i) => book.places[i].municipality.name));
  }

  /**
   * A supplier for a contract: from the buyer's district with probability `local`, else national; its rank drawn
   * from the Zipf-like law with `u`.
   */
  draw(rng: Rng, sector: Sector, district: number, local: number): Supplier {
    const national = NATIONAL_ONLY[sector] === true || rng.next() >= local;
    const poolSize = national ? (NATIONAL_POOL_OF[sector] ?? NATIONAL_POOL) : DISTRICT_POOL;
    const shape = national ? NATIONAL_SHAPE : DISTRICT_SHAPE;
    const rank = zipfRank(rng.next(), poolSize, shape);
    return this.get(sector, national ? -1 : district, rank);
  }

  /** The national supplier of a sector at `rank` (0 the busiest). */
  national(sector: Sector, rank: number): Supplier {
    return this.get(sector, -1, rank);
  }

  /**
   * A national firm of the sector that the Zipf-like draws all but never reach (the n-th from the end of its pool):
   * the integrity patterns' cover bidder and general traders are firms that win nothing by the ordinary draws.
   */
  outsider(sector: Sector, n: number): Supplier {
    return this.get(sector, -1, this.poolSize(sector) - 1 - n);
  }

  /** How many national suppliers the sector has. */
  poolSize(sector: Sector): number {
    return NATIONAL_POOL_OF[sector] ?? NATIONAL_POOL;
  }

  get(sector: Sector, district: number, rank: number): Supplier {
    const s = SECTOR_ORDER.indexOf(sector);
    if (s < 0) throw new Error(`demo procurement: unknown sector ${sector}`);
    const perSector = NATIONAL_POOL + this.#districts.length * DISTRICT_POOL;
    const id = s * perSector + (district < 0 ? rank : NATIONAL_POOL + district * DISTRICT_POOL + rank);
    let supplier = this.#cache.get(id);
    if (!supplier) {
      supplier = this.#make(sector, district, rank, id);
      if (this.#cache.size > 50_000) this.#cache.clear();
      this.#cache.set(id, supplier);
    }
    return supplier;
  }

  #make(sector: Sector, district: number, rank: number, id: number): Supplier {
    const rng = new Rng(hashSeed(this.#seed, 'supplier', id));
    const personShare = PERSON_SHARE[sector] ?? 0;
    if (rng.next() < personShare) {
      const nif = this.#persons.nif(id);
      const name = personName(rng);
      return {
        party: { nif, name },
        entity: { nif, name, kind: 'person' as EntityKind, country: 'PT', municipality_id: null },
      };
    }
    const nif = this.#companies.nif(SUPPLIER_OFFSET + id);
    const town = district >= 0 && rng.next() < 0.5 ? rng.pick(this.#districtTowns[district]) : rng.pick(PLACE_WORDS);
    const name = companyName(rng, sector, town, rank < 10 && district < 0);
    return { party: { nif, name }, entity: { nif, name, kind: 'company', country: 'PT', municipality_id: null } };
  }
}

/** Sectors in a fixed order: a supplier's id (and so its tax number) depends on its sector's position. */
/** Inverse of the (continuous) truncated law P(x) ∝ (x + c)^−s on [0, size): a rank from a uniform u. */
export function zipfRank(u: number, size: number, c: number, s = ZIPF_EXPONENT): number {
  const a = 1 - s;
  const top = (1 + size / c) ** a;
  const x = c * ((1 - u * (1 - top)) ** (1 / a) - 1);
  return Math.min(size - 1, Math.max(0, Math.floor(x)));
}

const SECTOR_ORDER: Sector[] = [
  'construction',
  'engineering',
  'green',
  'consulting',
  'legal',
  'cleaning',
  'waste',
  'it',
  'transport',
  'catering',
  'vehicles',
  'maintenance',
  'events',
  'arts',
  'training',
  'insurance',
  'telecom',
  'energy',
  'office',
  'food',
  'materials',
  'equipment',
  'security',
  'printing',
  'lab',
];

type NameParts = { S: string; S2: string; C: string; A: string; P: string; F: string };

const NAME_PATTERNS: Record<Sector, ((p: NameParts) => string)[]> = {
  construction: [
    (p) => `Construções ${p.S}, ${p.F}`,
    (p) => `${p.S} & Filhos, ${p.F}`,
    (p) => `${p.S} & Irmãos, ${p.F}`,
    (p) => `${p.C} - Construção Civil e Obras Públicas, ${p.F}`,
    (p) => `${p.S}, ${p.S2} - Engenharia e Construção, ${p.F}`,
    (p) => `Construtora de ${p.P}, ${p.F}`,
    (p) => `${p.A} - Sociedade de Construções, ${p.F}`,
  ],
  engineering: [
    (p) => `${p.A} - Engenharia e Projetos, ${p.F}`,
    (p) => `${p.S} & Associados - Arquitetos, ${p.F}`,
    (p) => `${p.C} Engenharia, ${p.F}`,
    (p) => `Gabinete de Engenharia ${p.S}, ${p.F}`,
    (p) => `${p.C} - Topografia e Cadastro, ${p.F}`,
  ],
  green: [
    (p) => `${p.C} - Jardins e Espaços Verdes, ${p.F}`,
    (p) => `Jardins de ${p.P}, ${p.F}`,
    (p) => `${p.S} - Floresta e Ambiente, ${p.F}`,
  ],
  consulting: [
    (p) => `${p.C} Consulting, ${p.F}`,
    (p) => `${p.A} - Consultoria e Gestão, ${p.F}`,
    (p) => `${p.S}, ${p.S2} & Associados - SROC, Lda`,
  ],
  legal: [
    (p) => `${p.S}, ${p.S2} & Associados - Sociedade de Advogados, SP, RL`,
    (p) => `${p.S} & ${p.S2} - Sociedade de Advogados, SP, RL`,
  ],
  cleaning: [
    (p) => `${p.C} - Serviços de Limpeza, ${p.F}`,
    (p) => `${p.C} Facility Services, ${p.F}`,
    (p) => `Limpezas ${p.S}, ${p.F}`,
  ],
  waste: [
    (p) => `${p.C} Ambiente, ${p.F}`,
    (p) => `${p.C} - Serviços Urbanos e Meio Ambiente, ${p.F}`,
    (p) => `${p.A} - Gestão de Resíduos, ${p.F}`,
  ],
  it: [
    (p) => `${p.C} - Tecnologias de Informação, ${p.F}`,
    (p) => `${p.C} Sistemas, ${p.F}`,
    (p) => `${p.C} - Soluções Informáticas, ${p.F}`,
    (p) => `${p.A} Informática, ${p.F}`,
  ],
  transport: [
    (p) => `Transportes ${p.S}, ${p.F}`,
    (p) => `${p.P} Tours, ${p.F}`,
    (p) => `Rodoviária de ${p.P}, ${p.F}`,
    (p) => `Viação ${p.S}, ${p.F}`,
  ],
  catering: [
    (p) => `${p.C} Refeições, ${p.F}`,
    (p) => `${p.C} - Restauração Coletiva, ${p.F}`,
    (p) => `${p.C} Catering, ${p.F}`,
  ],
  vehicles: [
    (p) => `Auto ${p.S}, ${p.F}`,
    (p) => `${p.P} Motor, ${p.F}`,
    (p) => `Pneus ${p.S}, ${p.F}`,
    (p) => `${p.C} - Comércio de Automóveis, ${p.F}`,
    (p) => `Oficina ${p.S} & Filhos, ${p.F}`,
  ],
  maintenance: [
    (p) => `${p.S} - Instalações Elétricas, ${p.F}`,
    (p) => `Electro ${p.S}, ${p.F}`,
    (p) => `${p.C} Manutenção, ${p.F}`,
    (p) => `${p.C} - Climatização e Energia, ${p.F}`,
  ],
  events: [
    (p) => `${p.C} Produções, ${p.F}`,
    (p) => `${p.C} Eventos, ${p.F}`,
    (p) => `${p.C} - Som e Iluminação, ${p.F}`,
    (p) => `Pirotecnia ${p.S}, ${p.F}`,
  ],
  arts: [
    (p) => `${p.C} Produções Artísticas, ${p.F}`,
    (p) => `Associação Cultural ${p.C}`,
    (p) => `${p.C} - Música e Espetáculos, ${p.F}`,
    (p) => `Rancho Folclórico de ${p.P}`,
  ],
  training: [(p) => `${p.C} Formação, ${p.F}`, (p) => `${p.A} - Centro de Formação Profissional, ${p.F}`],
  insurance: [(p) => `${p.C} Seguros, S.A.`, (p) => `Companhia de Seguros ${p.C}, S.A.`],
  telecom: [(p) => `${p.C} Comunicações, S.A.`, (p) => `${p.C} Telecom, S.A.`],
  energy: [
    (p) => `${p.C} Energia, ${p.F}`,
    (p) => `${p.C} Combustíveis, ${p.F}`,
    (p) => `Petróleos de ${p.P}, ${p.F}`,
    (p) => `${p.C} Gás, ${p.F}`,
  ],
  office: [
    (p) => `${p.C} Papelaria, ${p.F}`,
    (p) => `Papelaria ${p.S}, ${p.F}`,
    (p) => `${p.C} - Material de Escritório, ${p.F}`,
    (p) => `Livraria ${p.S}, ${p.F}`,
  ],
  food: [
    (p) => `Talho ${p.S}, ${p.F}`,
    (p) => `${p.S} & ${p.S2} - Distribuição Alimentar, ${p.F}`,
    (p) => `Padaria de ${p.P}, ${p.F}`,
    (p) => `${p.C} Alimentar, ${p.F}`,
    (p) => `Frutas ${p.S}, ${p.F}`,
    (p) => `Cooperativa Agrícola de ${p.P}, CRL`,
  ],
  materials: [
    (p) => `${p.S} - Materiais de Construção, ${p.F}`,
    (p) => `Britas de ${p.P}, ${p.F}`,
    (p) => `${p.C} Inertes, ${p.F}`,
    (p) => `${p.C} - Betuminosos, ${p.F}`,
    (p) => `Armazéns ${p.S}, ${p.F}`,
  ],
  equipment: [
    (p) => `${p.C} Equipamentos, ${p.F}`,
    (p) => `${p.C} Mobiliário, ${p.F}`,
    (p) => `${p.C} - Equipamentos Urbanos, ${p.F}`,
    (p) => `${p.C} Fardamentos, ${p.F}`,
  ],
  security: [(p) => `${p.C} Segurança Privada, ${p.F}`, (p) => `${p.C} - Vigilância e Segurança, ${p.F}`],
  printing: [
    (p) => `Gráfica de ${p.P}, ${p.F}`,
    (p) => `Tipografia ${p.S}, ${p.F}`,
    (p) => `${p.C} Comunicação, ${p.F}`,
    (p) => `${p.C} Publicidade, ${p.F}`,
  ],
  lab: [(p) => `${p.C} - Laboratório de Análises, ${p.F}`, (p) => `${p.A} Lab - Controlo de Qualidade, ${p.F}`],
};

function legalForm(rng: Rng, big: boolean): string {
  const u = rng.next();
  if (big ? u < 0.6 : u < 0.13) return rng.next() < 0.7 ? 'S.A.' : 'SA';
  if (u < 0.38) return 'Unipessoal Lda';
  if (u < 0.45) return 'Lda.';
  if (u < 0.5) return 'L.da';
  return 'Lda';
}

function companyName(rng: Rng, sector: Sector, town: string, big: boolean): string {
  const S = rng.pick(SURNAMES);
  let S2 = rng.pick(SURNAMES);
  if (S2 === S) S2 = S === 'Sequeira' ? 'Bastos' : 'Sequeira';
  const parts: NameParts = { S, S2, C: rng.pick(COINED), A: randomAcronym(rng), P: town, F: legalForm(rng, big) };
  return rng.pick(NAME_PATTERNS[sector])(parts);
}
