/**
 * Procurement records (docs/decisions.md, Procurement): what importers and generators write and what
 * operations read. Amounts in euros (numbers), dates YYYY-MM-DD, null where the source has nothing.
 */

import type { EntityKind, OcdsMethod } from '../lib/vocabulary.js';
import type { WriteSummary } from './records.js';

export type { EntityKind, OcdsMethod };

export interface Party {
  /** The tax number; '' when the source gives none (an anonymised person, "- - Name"). */
  nif: string;
  name: string;
}

/** A party as records show it: `nif` null where the source gave no tax number. */
export interface PartyRecord {
  nif: string | null;
  /** The name as published on this record (the entity's own name may differ). */
  name: string;
  /** The portal withheld this party's identity under the GDPR (a natural person; see shared/party-record.ts). */
  withheld: boolean;
}

export interface CpvRef {
  /** Eight digits, without the check digit (`45233140`). */
  code: string;
  label_pt: string | null;
  label_en: string | null;
}

export interface CpvRecord extends CpvRef {
  /** The division (first two digits). */
  division: string;
}

/** Provenance every procurement record keeps. */
export interface Provenance {
  /** `base` (the national portal's open data), `demo`, … */
  source: string;
  /** The record's id at its source (the portal's contract id, notice number, …). */
  source_id: string;
  imported_at: string;
}

export interface ContractInput extends Provenance {
  procedure_id: string | null;
  /** Notice number of the announcement the procedure started with (`10331/2025`). */
  announcement_number: string | null;
  object: string;
  description: string | null;
  /** Portuguese label as published (`Concurso público`). */
  procedure_type: string | null;
  ocds_method: OcdsMethod | null;
  contract_types: string[];
  /** CPV codes (8 digits); the first is the main one. Labels come from the CPV table. */
  cpvs: string[];
  buyers: Party[];
  suppliers: Party[];
  competitors: Party[];
  base_price_eur: number | null;
  price_eur: number | null;
  effective_price_eur: number | null;
  published_on: string | null;
  awarded_on: string | null;
  signed_on: string | null;
  closed_on: string | null;
  execution_days: number | null;
  execution_places_text: string | null;
  /** Municipality ids the execution places resolve to. */
  municipality_ids: number[];
  framework_agreement: string | null;
  legal_basis: string | null;
  green: boolean | null;
  centralized: boolean | null;
  link: string | null;
}

export interface ContractRecord
  extends Omit<ContractInput, 'cpvs' | 'municipality_ids' | 'buyers' | 'suppliers' | 'competitors'> {
  id: number;
  cpv: CpvRef[];
  /** Municipality codes. */
  municipalities: string[];
  buyers: PartyRecord[];
  suppliers: PartyRecord[];
  competitors: PartyRecord[];
  /** The announcement (same source) whose notice number the contract gives, when it is in the store. */
  announcement_id: number | null;
  /** When it was last inserted or changed (../changes/change-stamp.ts). */
  updated_at: string;
}

/** A contract with its amendments, oldest first. */
export interface ContractDetailRecord extends ContractRecord {
  amendments: AmendmentRecord[];
}

export interface AnnouncementInput extends Provenance {
  published_on: string | null;
  deadline_on: string | null;
  buyer: Party;
  object: string;
  cpvs: string[];
  base_price_eur: number | null;
  contract_types: string[];
  procedure_type: string | null;
  municipality_ids: number[];
  /** District (or autonomous region) name, when the notice names one. */
  district: string | null;
  link: string | null;
}

export interface AnnouncementRecord extends Omit<AnnouncementInput, 'cpvs' | 'municipality_ids' | 'buyer'> {
  id: number;
  buyer: PartyRecord;
  cpv: CpvRef[];
  municipalities: string[];
}

export interface AmendmentInput extends Provenance {
  /** The contract's id at the same source (the portal's `idcontrato`). */
  contract_source_id: string;
  date: string | null;
  previous_price_eur: number | null;
  new_price_eur: number | null;
  reason: string | null;
  link: string | null;
}

export interface AmendmentRecord {
  id: number;
  contract_id: number;
  source: string;
  source_id: string;
  date: string | null;
  /**
   * As the source gave it; where it gave none, the price before this amendment: the new price of the latest
   * earlier amendment of the contract, or else the contract price.
   */
  previous_price_eur: number | null;
  new_price_eur: number | null;
  /** new − previous, when both are known. */
  change_eur: number | null;
  reason: string | null;
  link: string | null;
  imported_at: string;
}

export interface EntityInput {
  nif: string;
  name: string;
  kind: EntityKind;
  country: string | null;
  municipality_id: number | null;
}

/** The sources of the records an entity is named in: as buyer or supplier of contracts, as buyer of notices. */
export interface EntityRecordSources {
  contracts: Set<string>;
  announcements: Set<string>;
}

export interface EntityRecord {
  nif: string;
  name: string;
  kind: EntityKind;
  country: string | null;
  municipality: string | null;
  contracts_as_buyer: number;
  contracts_as_supplier: number;
  total_as_buyer_eur: number;
  total_as_supplier_eur: number;
}

/** What a bulk write did. `rejected` rows never reach the store: importers report them. */
export type ProcurementWriteSummary = WriteSummary;

/** A buyer's contract as the supplier-concentration check sums it (Store.buyerPrices). */
export interface BuyerPriceRecord {
  id: number;
  published_on: string | null;
  /** Read for a contract without a publication date (its year is its signing's); null for the others. */
  signed_on: string | null;
  price_eur: number | null;
  /** The tax number of the contract's one supplier; null when it has none, several, or one without a number. */
  sole_supplier: string | null;
}
