/**
 * What operations ask the procurement store: typed filters (municipality ids, never codes; text already folded),
 * keyset positions and the shapes of derived answers. Each list is ordered by a unique position, so that a page
 * starts strictly after the last row of the previous one.
 */
import type { EntityKind, OcdsMethod } from './procurement-records.js';

/** A keyset page: rows strictly after `after` (in the list's order), at most `limit` of them. */
export interface KeysetPage<P> {
  after?: P;
  limit: number;
}

/** Position in a list ordered by a date (descending or ascending) then id: unique, hence a keyset. */
export interface DatePosition {
  /** The row's date; null for rows without one (they come last in descending lists). */
  date: string | null;
  id: number;
}

export interface ContractFilter {
  /** Contracts executed in any of these municipalities. */
  municipalityIds?: readonly number[];
  /** Tax number of a contracting entity. */
  buyer?: string;
  /** Tax number of a supplier. */
  supplier?: string;
  /** Tax number of a buyer or a supplier (either role). */
  party?: string;
  /** 1–8 digits the main CPV code starts with. */
  cpvPrefix?: string;
  /** The procedure type label, compared case- and accent-insensitively. */
  procedureType?: string;
  method?: OcdsMethod;
  /** Inclusive bounds on the publication date; contracts without one never match a bound. */
  from?: string;
  to?: string;
  /** Inclusive bounds on the contract price; contracts without a price never match a bound. */
  minAmount?: number;
  maxAmount?: number;
  /** Folded words (text-match `queryTokens`) that must all occur in the object or description. */
  words?: readonly string[];
  /** Only records of this source (`base`, `demo`, …). */
  source?: string;
  /**
   * Only contracts changed after this instant (updated_at, exclusive), listed in change order: (updated_at, id)
   * ascending, the page's position then being (updated_at, id) (docs/api.md, "Syncing").
   */
  updatedSince?: string;
}

export const AGGREGATE_DIMENSIONS = [
  'year',
  'month',
  'cpv_division',
  'procedure_type',
  'contracting_entity',
  'supplier',
  'municipality',
] as const;
export type AggregateDimension = (typeof AGGREGATE_DIMENSIONS)[number];

export interface AggregateQuery {
  /** Contracts executed in any of these municipalities. */
  executedIn?: readonly number[];
  from?: string;
  to?: string;
  groupBy: readonly AggregateDimension[];
  /** Only contracts of this source: counted from the contracts (the rollups sum every source). */
  source?: string;
}

/**
 * One group's key, per dimension: year (number), month (`YYYY-MM`), cpv_division (2 digits), procedure_type
 * (label), contracting_entity and supplier (tax number), municipality (code); null for "none/unknown".
 */
export type AggregateKey = Partial<Record<AggregateDimension, string | number | null>>;

export interface AggregateGroup {
  key: AggregateKey;
  /** Readable names of the key's values where they have one (CPV division label, entity or municipality name). */
  labels: Partial<Record<AggregateDimension, string>>;
  count: number;
  total_eur: number;
}

export interface AggregateResult {
  /** Ordered by key (dimension by dimension, in `groupBy` order; nulls last). */
  groups: AggregateGroup[];
  /** Every matching contract once. */
  totals: { count: number; total_eur: number };
}

export interface EntityFilter {
  /** Folded words that must all occur in the name or the tax number. */
  words?: readonly string[];
  kind?: EntityKind;
  /** The entity that is this municipality. */
  municipalityId?: number;
  /** Entities a record of this source names: a party of one of its contracts, or the buyer of one of its notices. */
  source?: string;
}

/** Contracts and euros of one entity in one year, as buyer and as supplier. */
export interface EntityYearRecord {
  /** null for contracts without a publication date. */
  year: number | null;
  as_buyer_count: number;
  as_buyer_eur: number;
  as_supplier_count: number;
  as_supplier_eur: number;
}

/** An entity on the other side of an entity's contracts. */
export interface CounterpartRecord {
  nif: string;
  name: string;
  count: number;
  total_eur: number;
}

export interface AnnouncementFilter {
  municipalityIds?: readonly number[];
  /** Folded district name: announcements naming the district or placed in one of its municipalities. */
  district?: string;
  /** 1–8 digits any of the announcement's CPV codes starts with. */
  cpvPrefix?: string;
  /** Only announcements whose proposal deadline is on or after this date (today, for "open only"). */
  openOn?: string;
  /** Inclusive bounds on the proposal deadline. */
  closingAfter?: string;
  closingBefore?: string;
  words?: readonly string[];
  /**
   * `published`: publication date descending, then id descending; `deadline`: deadline ascending, then id ascending.
   */
  order: 'published' | 'deadline';
  /** Only records of this source (`base`, `demo`, …). */
  source?: string;
}

export interface AmendmentFilter {
  contractId?: number;
  /** Amendments of contracts executed in any of these municipalities. */
  municipalityIds?: readonly number[];
  /** Inclusive bounds on the amendment date. */
  from?: string;
  to?: string;
  /** Only records of this source (`base`, `demo`, …). */
  source?: string;
}

/** How many records of one kind a procurement source holds, and when the last of them was imported. */
export interface ProcurementSourceCount {
  source: string;
  records: 'contracts' | 'announcements' | 'amendments';
  count: number;
  last_imported_at: string | null;
  /** The earliest and latest known publication date (amendments: their date); null when none is known. */
  first_date: string | null;
  last_date: string | null;
}

/** One contracting process: the contracts sharing a procedure id, or a lone contract that has none. */
export type ProcessKey = { procedureId: string } | { contractSourceId: string };

/** A contract or an amendment by its source and its id at the source (what a signal's key names). */
export interface ProcurementRecordRef {
  kind: 'contract' | 'amendment';
  source: string;
  sourceId: string;
}

/**
 * One supplier's contracting processes in one source — a process is the contracts sharing a procedure id, or a lone
 * contract without one — counting those where it is a contract's sole supplier and the contract has a CPV code,
 * and the distinct CPV prefixes of a given length among those contracts' codes (the heterogeneous-supplier corpus).
 */
export interface SupplierVarietyRecord {
  nif: string;
  processes: number;
  cpv_prefixes: number;
}

/**
 * One tenderer's bids in one source: the contracting processes where it is a competitor of a contract with one
 * supplier, and those where it is that supplier (the excessive-unsuccessful-bids corpus).
 */
/** A contract that carries a notice, with the notice's procedure type and contract types (Store.noticeContracts). */
export interface NoticeContract {
  contract_id: number;
  procedure_type: string | null;
  contract_types: string[];
}

export interface TendererBidsRecord {
  nif: string;
  bids: number;
  wins: number;
}

/** Which notices' submission periods to count (integrity, docs/integrity.md "Short submission period"). */
export interface NoticePeriodQuery {
  source: string;
  /** Inclusive bounds on the publication date. */
  from: string;
  to: string;
}

/** How many notices of one procedure type and list of contract types gave one submission period. */
export interface NoticePeriodCount {
  /** As published (`Concurso público`); null when the notice gives none. */
  procedure_type: string | null;
  contract_types: string[];
  /** Days from the publication date to the proposal deadline (negative when the deadline is the earlier). */
  days: number;
  /** The publication year (YYYY). */
  year: string;
  count: number;
}
