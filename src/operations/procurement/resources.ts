/** Store records → the resources of schemas.ts, field for field (the one place their shapes meet). */

import type { Static } from '@sinclair/typebox';
import { DEMO_PROCUREMENT_SOURCE, isDemoProcurementSource } from '../../lib/provenance.js';
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractDetailRecord,
  ContractRecord,
  EntityRecord,
  PartyRecord,
} from '../../store/procurement-records.js';
import type { Store } from '../../store/store.js';
import { entityIdentity, partyTaxNumberFacts } from './entity-identity.js';
import type { Amendment, Announcement, ContractDetail, ContractSummary, Entity, Party } from './schemas.js';

export function toContractSummary(c: ContractRecord): Static<typeof ContractSummary> {
  return {
    id: c.id,
    source: c.source,
    source_id: c.source_id,
    synthetic: isDemoProcurementSource(c.source),
    procedure_id: c.procedure_id,
    object: c.object,
    procedure_type: c.procedure_type,
    ocds_method: c.ocds_method,
    contract_types: c.contract_types,
    cpv_main: c.cpv[0]?.code ?? null,
    buyers: c.buyers.map(toParty),
    suppliers: c.suppliers.map(toParty),
    price_eur: c.price_eur,
    base_price_eur: c.base_price_eur,
    published_on: c.published_on,
    signed_on: c.signed_on,
    municipalities: c.municipalities,
    link: c.link,
    updated_at: c.updated_at,
  };
}

/** A party as published, with what its tax number is (a placeholder is no one's Portuguese number). */
export function toParty(p: PartyRecord): Static<typeof Party> {
  return { nif: p.nif, name: p.name, withheld: p.withheld, ...partyTaxNumberFacts(p.nif) };
}

export function toContractDetail(c: ContractDetailRecord): Static<typeof ContractDetail> {
  return {
    ...toContractSummary(c),
    description: c.description,
    cpv: c.cpv,
    competitors: c.competitors.map(toParty),
    effective_price_eur: c.effective_price_eur,
    awarded_on: c.awarded_on,
    closed_on: c.closed_on,
    execution_days: c.execution_days,
    execution_places_text: c.execution_places_text,
    framework_agreement: c.framework_agreement,
    legal_basis: c.legal_basis,
    green: c.green,
    centralized: c.centralized,
    announcement_number: c.announcement_number,
    announcement_id: c.announcement_id,
    amendments: c.amendments.map(toAmendment),
    imported_at: c.imported_at,
  };
}

export function toAmendment(a: AmendmentRecord): Static<typeof Amendment> {
  return {
    id: a.id,
    contract_id: a.contract_id,
    date: a.date,
    previous_price_eur: a.previous_price_eur,
    new_price_eur: a.new_price_eur,
    change_eur: a.change_eur,
    reason: a.reason,
    link: a.link,
    source: a.source,
    source_id: a.source_id,
    synthetic: isDemoProcurementSource(a.source),
    imported_at: a.imported_at,
  };
}

/** `synthetic`: whether any of its contracts is demo data (demoEntities). */
export function toEntity(e: EntityRecord, synthetic: boolean): Static<typeof Entity> {
  const identity = entityIdentity(e.nif, e.kind, e.country);
  return {
    nif: e.nif,
    name: e.name,
    kind: e.kind,
    country: identity.country,
    municipality: e.municipality,
    nif_kind: identity.nif_kind,
    kind_assumed: identity.kind_assumed,
    note: identity.note,
    contracts_as_buyer: e.contracts_as_buyer,
    contracts_as_supplier: e.contracts_as_supplier,
    total_as_buyer_eur: e.total_as_buyer_eur,
    total_as_supplier_eur: e.total_as_supplier_eur,
    synthetic,
  };
}

/** `today` (YYYY-MM-DD) decides `is_open`: a deadline today is still open. */
export function toAnnouncement(a: AnnouncementRecord, today: string): Static<typeof Announcement> {
  return {
    id: a.id,
    source_id: a.source_id,
    published_on: a.published_on,
    deadline_on: a.deadline_on,
    is_open: a.deadline_on !== null && a.deadline_on >= today,
    buyer: toParty(a.buyer),
    object: a.object,
    cpv: a.cpv,
    base_price_eur: a.base_price_eur,
    contract_types: a.contract_types,
    procedure_type: a.procedure_type,
    municipalities: a.municipalities,
    district: a.district,
    link: a.link,
    source: a.source,
    synthetic: isDemoProcurementSource(a.source),
    imported_at: a.imported_at,
  };
}

/** The calendar day of an instant, UTC. */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Which of these entities are synthetic: party to a demo contract (their counts and totals then hold demo data),
 * or named by no real record at all (the demo made them up, e.g. the buyer of a generated notice). One read for a
 * whole page.
 */
export async function demoEntities(
  store: Pick<Store, 'entityRecordSources'>,
  nifs: readonly string[],
): Promise<Set<string>> {
  const sources = await store.entityRecordSources(nifs);
  const real = (names: Set<string>) => [...names].some((s) => !isDemoProcurementSource(s));
  return new Set(
    nifs.filter((nif) => {
      const of = sources.get(nif);
      return !of || of.contracts.has(DEMO_PROCUREMENT_SOURCE) || !(real(of.contracts) || real(of.announcements));
    }),
  );
}
