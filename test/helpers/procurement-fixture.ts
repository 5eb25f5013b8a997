/**
 * A hand-built, realistic procurement fixture: eight municipalities buying (each under its real NIF from
 * data/municipalities.csv) from suppliers with valid check digits, with the portal's procedure types, CPV codes,
 * accents in names and objects, contracts without a date, a price or a municipality, parties without a NIF,
 * announcements closing before and after `today`, and amendments with and without their previous price.
 * Deterministic: the same arguments give the same records, so tests compute their expectations from it.
 */
import { readMunicipalities } from '../../src/ingest/municipalities.js';
import type {
  AmendmentInput,
  AnnouncementInput,
  ContractInput,
  EntityInput,
  OcdsMethod,
  Party,
} from '../../src/store/procurement-records.js';
import type { MunicipalityRecord } from '../../src/store/records.js';

export const IMPORTED_AT = '2025-07-01T10:00:00Z';

/**
 * A contract of the portal's source (`base`) of which only `fields` are known besides its id: the object `Contrato
 * <id>`, an open procedure for services (CPV 79341000), every other field empty (null, or no party). A test names
 * what its case turns on and nothing else.
 */
export function contractInput(sourceId: string, fields: Partial<ContractInput> = {}): ContractInput {
  return {
    source: 'base',
    source_id: sourceId,
    imported_at: IMPORTED_AT,
    procedure_id: null,
    announcement_number: null,
    object: `Contrato ${sourceId}`,
    description: null,
    procedure_type: 'Concurso público',
    ocds_method: 'open',
    legal_basis: null,
    contract_types: ['Aquisição de serviços'],
    cpvs: ['79341000'],
    buyers: [],
    suppliers: [],
    competitors: [],
    base_price_eur: null,
    price_eur: null,
    effective_price_eur: null,
    published_on: null,
    awarded_on: null,
    signed_on: null,
    closed_on: null,
    execution_days: null,
    execution_places_text: null,
    municipality_ids: [],
    framework_agreement: null,
    green: null,
    centralized: null,
    link: null,
    ...fields,
  };
}

/** A valid Portuguese NIF from its first eight digits (mod-11 check digit). */
export function withCheckDigit(first8: string): string {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(first8[i]) * (9 - i);
  const rest = sum % 11;
  return `${first8}${rest < 2 ? 0 : 11 - rest}`;
}

const ALL = readMunicipalities();
export const BUYER_CODES = ['1106', '1312', '0705', '0603', '1317', '0805', '1308', '1109'] as const;
export const BUYERS: MunicipalityRecord[] = BUYER_CODES.map((code) => {
  const m = ALL.find((x) => x.code === code);
  if (!m) throw new Error(`no municipality ${code}`);
  return m;
});

export const SUPPLIERS: Party[] = [
  'Construções Silva & Filhos, Lda.',
  'Águas do Mondego, S.A.',
  'Jardim Espontâneo - Arquitectura Paisagista Unipessoal Lda',
  'Informática Évora, Lda',
  'Limpezas Atlântico, S.A.',
  'Refeições Escolares do Norte, Lda.',
  'Betões e Asfaltos do Sul, S.A.',
  'Gabinete de Engenharia Ponte Nova, Lda.',
  'Viaturas Elétricas Portugal, S.A.',
  'Papelaria Central de Coimbra, Lda.',
  'Segurança Total - Vigilância, S.A.',
  'Mota & Irmão Empreitadas, Lda.',
].map((name, i) => ({ nif: withCheckDigit(String(50800000 + i * 1371)), name }));
/** A natural person (NIF starting with 2) and a supplier the portal lists without a tax number. */
export const PERSON: Party = { nif: withCheckDigit('21334455'), name: 'Ana Sofia Gonçalves' };
export const UNIDENTIFIED: Party = { nif: '', name: 'Consórcio sem NIF' };

export const CPVS = [
  '45233140',
  '45000000',
  '45210000',
  '79341000',
  '72210000',
  '34144900',
  '90910000',
  '77310000',
  '33600000',
  '15894200',
];
export const PROCEDURES: [string, OcdsMethod][] = [
  ['Ajuste Direto Regime Geral', 'direct'],
  ['Concurso público', 'open'],
  ['Consulta Prévia', 'limited'],
  ['Consulta Prévia Simplificada', 'limited'],
  ['Ao abrigo de acordo-quadro (art.º 259.º)', 'selective'],
  ['Concurso limitado por prévia qualificação', 'selective'],
];
const OBJECTS = [
  'Empreitada de requalificação da Rua de São João',
  'Aquisição de serviços de limpeza de edifícios municipais',
  'Fornecimento de refeições escolares',
  'Manutenção de espaços verdes do Parque da Cidade',
  'Aquisição de viaturas elétricas',
  'Desenvolvimento de software de gestão documental',
  'Reabilitação do Mercado Municipal',
  'Serviços de vigilância e segurança',
  'Publicidade institucional',
  'Aquisição de medicamentos',
];

/** Days after 2023-01-01 as YYYY-MM-DD. */
function day(offset: number): string {
  return new Date(Date.UTC(2023, 0, 1) + offset * 86_400_000).toISOString().slice(0, 10);
}

export interface Fixture {
  entities: EntityInput[];
  contracts: ContractInput[];
  announcements: AnnouncementInput[];
  amendments: AmendmentInput[];
}

export function buildFixture(options: { contracts?: number; today: string; source?: string }): Fixture {
  const source = options.source ?? 'fixture';
  const count = options.contracts ?? 300;
  const entities: EntityInput[] = BUYERS.map((m) => ({
    nif: m.nif,
    name: `Município de ${m.name}`,
    kind: 'municipality',
    country: 'PT',
    municipality_id: m.id,
  }));
  const contracts: ContractInput[] = [];
  for (let i = 0; i < count; i++) {
    const buyer = BUYERS[i % BUYERS.length];
    const [procedure, method] = PROCEDURES[(i * 5) % PROCEDURES.length];
    const cpvMain = CPVS[(i * 3) % CPVS.length];
    const suppliers = [SUPPLIERS[(i * 7) % SUPPLIERS.length]];
    if (i % 10 === 0) suppliers.push(SUPPLIERS[(i * 7 + 5) % SUPPLIERS.length]);
    if (i % 37 === 0) suppliers.push(PERSON);
    if (i % 41 === 0) suppliers.push(UNIDENTIFIED);
    const places = i % 25 === 0 ? [] : i % 15 === 0 ? [buyer.id, BUYERS[(i + 1) % BUYERS.length].id] : [buyer.id];
    // A heavy tail: most contracts small, a few in the millions; some without a price.
    const price = i % 53 === 0 ? null : Math.round((1500 + ((i * 7919) % 97) ** 3 * 1.37) * 100) / 100;
    // Several contracts share a date (ties broken by id); two have none.
    const published = i % 149 === 17 ? null : day(Math.floor((i * 2.9) % 900));
    contracts.push({
      source,
      source_id: String(10_400_000 + i),
      imported_at: IMPORTED_AT,
      procedure_id: String(7_000_000 + Math.floor(i / 2)),
      announcement_number: i % 9 === 0 ? `${1000 + i}/2024` : null,
      object: `${OBJECTS[i % OBJECTS.length]} — lote ${i}`,
      description: i % 4 === 0 ? `${OBJECTS[(i + 3) % OBJECTS.length]} (descrição)` : null,
      procedure_type: procedure,
      ocds_method: method,
      contract_types: cpvMain.startsWith('45') ? ['Empreitadas de obras públicas'] : ['Aquisição de serviços'],
      cpvs: i % 6 === 0 ? [cpvMain, CPVS[(i + 1) % CPVS.length]] : [cpvMain],
      buyers: [{ nif: buyer.nif, name: `Município de ${buyer.name}` }],
      suppliers,
      competitors: i % 3 === 0 ? [SUPPLIERS[(i + 2) % SUPPLIERS.length]] : [],
      base_price_eur: price === null ? null : Math.round(price * 1.1 * 100) / 100,
      price_eur: price,
      effective_price_eur: i % 5 === 0 ? price : null,
      published_on: published,
      awarded_on: published,
      signed_on: published,
      closed_on: null,
      execution_days: 30 + (i % 12) * 30,
      execution_places_text: places.length === 0 ? 'Portugal' : `Portugal, ${buyer.district}, ${buyer.name}`,
      municipality_ids: places,
      framework_agreement: null,
      legal_basis: 'Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos',
      green: i % 7 === 0,
      centralized: false,
      link: `https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=${10_400_000 + i}`,
    });
  }
  const today = Date.parse(`${options.today}T00:00:00Z`);
  const relative = (days: number) => new Date(today + days * 86_400_000).toISOString().slice(0, 10);
  const announcements: AnnouncementInput[] = [];
  for (let i = 0; i < 60; i++) {
    const buyer = BUYERS[i % BUYERS.length];
    announcements.push({
      source,
      source_id: `${2000 + i}/2025`,
      imported_at: IMPORTED_AT,
      published_on: relative(-60 + i),
      // From 30 days ago to 29 days ahead: half closed, half open; a few without a deadline.
      deadline_on: i % 13 === 5 ? null : relative(-30 + ((i * 17) % 60)),
      buyer: { nif: buyer.nif, name: `Município de ${buyer.name}` },
      object: `Concurso: ${OBJECTS[(i * 3) % OBJECTS.length]}`,
      cpvs: [CPVS[i % CPVS.length], CPVS[(i + 4) % CPVS.length]],
      base_price_eur: 10_000 + i * 1_000,
      contract_types: ['Aquisição de serviços'],
      procedure_type: 'Concurso público',
      municipality_ids: i % 11 === 0 ? [] : [buyer.id],
      district: i % 11 === 0 ? buyer.district : null,
      link: `https://www.base.gov.pt/Base4/pt/detalhe/?type=anuncios&id=${2000 + i}`,
    });
  }
  const amendments: AmendmentInput[] = [];
  for (let i = 0; i < Math.min(count, 240); i += 12) {
    const contract = contracts[i];
    const base = contract.price_eur ?? 10_000;
    const first = contract.published_on ?? '2024-06-01';
    amendments.push({
      source,
      source_id: `M${i}-1`,
      imported_at: IMPORTED_AT,
      contract_source_id: contract.source_id,
      date: first < '2025-01-01' ? '2025-01-15' : '2025-06-15',
      previous_price_eur: i % 24 === 0 ? base : null,
      new_price_eur: Math.round(base * 1.1 * 100) / 100,
      reason: 'Trabalhos complementares',
      link: null,
    });
    if (i % 36 === 0) {
      amendments.push({
        source,
        source_id: `M${i}-2`,
        imported_at: IMPORTED_AT,
        contract_source_id: contract.source_id,
        date: '2025-06-30',
        previous_price_eur: null,
        new_price_eur: Math.round(base * 1.25 * 100) / 100,
        reason: 'Prorrogação do prazo com revisão de preço',
        link: null,
      });
    }
  }
  return { entities, contracts, announcements, amendments };
}
