/**
 * What a rule is matched against: one journal entry's record (a signal, an announcement, a contract, an
 * amendment) reduced to the few things matchers read, whatever its kind.
 */

import type { AlertSourceType } from '../lib/vocabulary.js';
import type { MatchableSignal } from '../store/signal-records.js';

export type PartyRole = 'buyer' | 'supplier' | 'party';

export interface ItemParty {
  nif: string;
  name: string | null;
  role: PartyRole;
}

export interface ItemCpv {
  code: string;
  label_pt: string | null;
}

export interface AlertItem {
  /** Unique per rule in the matches: `signal:123`, `procurement_contract:456`, … */
  key: string;
  source_type: AlertSourceType;
  /** Where it happens: the buying municipality first, then the places of execution; the signal's own for a signal. */
  municipality_ids: number[];
  /** The district an announcement names, for district rules when it resolves to no municipality. */
  district: string | null;
  title: string | null;
  /** Text a keyword counts most in: the object of a procurement record, the title of a signal. */
  headline: string;
  /** Other text, where a keyword is only a mention: description, amendment reason, signal summary. */
  body: string;
  cpvs: ItemCpv[];
  parties: ItemParty[];
  link: string | null;
  /** The proposal deadline of an announcement or a tender signal. */
  deadline: string | null;
  /** A signal's case. */
  case_id: number | null;
  /** A procurement record's case key, resolved to `case_id` once the record matched (case-lookup.ts). */
  case_key: string | null;
  /** The signal itself when the item is one. */
  signal: MatchableSignal | null;
}

export function itemKey(sourceType: AlertSourceType, id: number): string {
  return `${sourceType}:${id}`;
}
