/**
 * A few procurement records and signals written through the store, with words, tax numbers and indicator values
 * nothing in the demo has, so alert tests know exactly what each rule must match. Dates are relative to `now`:
 * inside the premium plan's 365-day alert window, except one contract 400 days old.
 */
import { readMunicipalities } from '../../src/ingest/municipalities.js';
import type { AmendmentInput, AnnouncementInput, ContractInput, Party } from '../../src/store/procurement-records.js';
import type { SignalInput } from '../../src/store/signal-records.js';
import type { Store } from '../../src/store/store.js';
import { withCheckDigit } from './procurement-fixture.js';

export const SOURCE = 'alerttest';
const MUNICIPALITIES = readMunicipalities();
const municipality = (code: string) => {
  const m = MUNICIPALITIES.find((x) => x.code === code);
  if (!m) throw new Error(`no municipality ${code}`);
  return m;
};
export const EVORA = municipality('0705');
export const LISBOA = municipality('1106');
export const PORTO = municipality('1312');
export const EVORA_BUYER: Party = { nif: EVORA.nif, name: 'Município de Évora' };
export const LISBOA_BUYER: Party = { nif: LISBOA.nif, name: 'Município de Lisboa' };
/** A supplier no demo record has (demo companies are numbered 590–599, public bodies 690–699). */
export const WATCHED_SUPPLIER: Party = { nif: withCheckDigit('52990017'), name: 'Dirigíveis do Alentejo, Lda.' };
export const INDICATOR = 'population';

const DAY_MS = 86_400_000;
export function daysBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

export function announcement(now: Date, fields: Partial<AnnouncementInput> = {}): AnnouncementInput {
  return {
    source: SOURCE,
    source_id: 'ZEP-1/2026',
    imported_at: now.toISOString(),
    published_on: daysBefore(now, 10),
    deadline_on: daysBefore(now, -20),
    buyer: EVORA_BUYER,
    object: 'Aquisição de um Zéppelin de observação',
    cpvs: ['34000000'],
    base_price_eur: 250_000,
    contract_types: ['Aquisição de bens móveis'],
    procedure_type: 'Concurso público',
    municipality_ids: [EVORA.id],
    district: 'Évora',
    link: 'https://example.test/anuncio/ZEP-1',
    ...fields,
  };
}

function contract(
  now: Date,
  fields: Partial<ContractInput> & Pick<ContractInput, 'source_id' | 'object'>,
): ContractInput {
  return {
    source: SOURCE,
    imported_at: now.toISOString(),
    procedure_id: null,
    announcement_number: null,
    description: null,
    procedure_type: 'Ajuste Direto Regime Geral',
    ocds_method: 'direct',
    contract_types: ['Aquisição de serviços'],
    cpvs: ['50000000'],
    buyers: [EVORA_BUYER],
    suppliers: [WATCHED_SUPPLIER],
    competitors: [],
    base_price_eur: null,
    price_eur: 18_000,
    effective_price_eur: null,
    published_on: daysBefore(now, 5),
    awarded_on: null,
    signed_on: null,
    closed_on: null,
    execution_days: 365,
    execution_places_text: 'Évora',
    municipality_ids: [EVORA.id],
    framework_agreement: null,
    legal_basis: null,
    green: null,
    centralized: null,
    link: `https://example.test/contrato/${fields.source_id}`,
    ...fields,
  };
}

export function contracts(now: Date): ContractInput[] {
  return [
    // Mentions the word only in its description: a passing mention.
    contract(now, {
      source_id: 'C1',
      object: 'Manutenção de equipamentos aeronáuticos',
      description: 'Inclui a revisão anual do zeppelin municipal e dos seus balões.',
    }),
    // About it, but in Lisboa.
    contract(now, {
      source_id: 'C2',
      object: 'Zeppelin publicitário',
      buyers: [LISBOA_BUYER],
      municipality_ids: [LISBOA.id],
      published_on: daysBefore(now, 3),
    }),
    // About it, in Évora, but older than every alert window.
    contract(now, { source_id: 'C3', object: 'Zeppelin antigo', published_on: daysBefore(now, 400) }),
  ];
}

export function amendment(now: Date): AmendmentInput {
  return {
    source: SOURCE,
    source_id: 'M1',
    imported_at: now.toISOString(),
    contract_source_id: 'C1',
    date: daysBefore(now, 2),
    previous_price_eur: 18_000,
    new_price_eur: 21_000,
    reason: 'Trabalhos complementares',
    link: null,
  };
}

export async function writeProcurementFixture(store: Store, now: Date): Promise<void> {
  await store.writeProcurement({ announcements: [announcement(now)], contracts: contracts(now) });
  await store.writeProcurement({ amendments: [amendment(now)] });
}

function signal(now: Date, fields: Partial<SignalInput> & Pick<SignalInput, 'key' | 'type' | 'family'>): SignalInput {
  return {
    origin: 'detector',
    case: null,
    municipality_id: EVORA.id,
    title_pt: 'Sinal de teste',
    title_en: 'Test signal',
    summary_pt: 'Resumo do sinal de teste.',
    summary_en: 'Test signal summary.',
    why_it_matters_pt: null,
    why_it_matters_en: null,
    next_step_pt: null,
    stage: null,
    status: 'active',
    value_tier: null,
    confidence: 0.8,
    deadline_date: null,
    event_date: daysBefore(now, 1),
    amount_eur: null,
    location_text: null,
    actionability: null,
    evidence: [
      {
        source_type: 'document',
        source_url: `https://example.test/evidence/${fields.key}`,
        source_title: null,
        source_date: null,
        excerpt_pt: null,
        confidence: null,
      },
    ],
    subject: { cpv: [], nifs: [], indicator: null, indicator_value: null },
    ...fields,
  };
}

/**
 * A deadline_closing signal on the Zéppelin announcement, in the case the detector would put it in (so the
 * announcement's matches get that case), and two indicator signals: population 1500 in Porto, 900 in Lisboa.
 */
export function fixtureSignals(now: Date): SignalInput[] {
  return [
    signal(now, {
      key: `procurement:deadline_closing:${SOURCE}:ZEP-1/2026`,
      type: 'deadline_closing',
      family: 'procurement',
      title_pt: 'Prazo a terminar: Aquisição de um Zéppelin de observação',
      deadline_date: daysBefore(now, -5),
      case: {
        key: `procurement:${SOURCE}:announcement:ZEP-1/2026`,
        type: 'tender_open',
        family: 'procurement',
        relationship: 'update',
      },
    }),
    signal(now, {
      key: 'indicators:indicator_jump:alerttest:porto',
      type: 'indicator_jump',
      family: 'indicators',
      municipality_id: PORTO.id,
      confidence: 0.9,
      subject: { cpv: [], nifs: [], indicator: INDICATOR, indicator_value: 1500 },
    }),
    signal(now, {
      key: 'indicators:indicator_jump:alerttest:lisboa',
      type: 'indicator_jump',
      family: 'indicators',
      municipality_id: LISBOA.id,
      confidence: 0.9,
      subject: { cpv: [], nifs: [], indicator: INDICATOR, indicator_value: 900 },
    }),
  ];
}

export async function writeFixtureSignals(store: Store, now: Date): Promise<void> {
  await store.writeSignals({ signals: fixtureSignals(now), now: now.toISOString() });
}
