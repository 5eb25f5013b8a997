/**
 * Parties as BASE writes them: tax number and name glued in one string.
 *   "507396081 - EMAC - Empresa Municipal…"   (adjudicante, adjudicatarios; names may contain " - ")
 *   "500035121-Caetano Formula, S.A."          (concorrentes: no spaces around the dash)
 *   "- - Name"                                 (no tax number)
 *   "RGPD - …" / "RGPD"                        (a natural person, anonymised under the GDPR)
 *   "ESB12345678 - Name"                       (a foreign tax id: letters, or not nine digits with letters)
 *   "52-0955532 - Name"                        (a foreign tax id with dashes: a US EIN)
 */

import { isValidNif } from '../../lib/nif.js';
import { FieldError, shown, text } from './values.js';

export type ParsedParty =
  /** A Portuguese NIF that passes the check digit, or a foreign tax id (`foreign`). */
  | { kind: 'identified'; nif: string; name: string; foreign: boolean }
  /** No tax number ("- - Name", or a bare name). */
  | { kind: 'unidentified'; name: string }
  /** A natural person the portal anonymised. */
  | { kind: 'anonymised'; name: string };

/** Normalises a tax number written alone: `506899250`, `506899250.0` (a spreadsheet float), `PT506899250`. */
export function normaliseNif(raw: string): string {
  const t = raw.replace(/[\s.]/g, '').toUpperCase();
  if (/^\d{9}(\.?0+)?$/.test(raw.trim())) return raw.trim().slice(0, 9);
  if (/^PT\d{9}$/.test(t)) return t.slice(2);
  return t;
}

/** Checks a tax number written alone; returns it normalised, with whether it is foreign. */
export function checkNif(raw: string): { nif: string; foreign: boolean } {
  const nif = normaliseNif(raw);
  if (/^\d+$/.test(nif)) {
    if (nif.length !== 9) throw new FieldError(`NIF ${nif} is not nine digits`);
    if (!isValidNif(nif)) throw new FieldError(`NIF ${nif} fails the check digit`);
    return { nif, foreign: false };
  }
  if (/^[A-Z0-9-]{4,20}$/.test(nif) && /\d/.test(nif)) return { nif, foreign: true };
  throw new FieldError(`${shown(raw)} is not a tax number`);
}

export function parseParty(raw: string): ParsedParty {
  const s = text(raw);
  if (s === null) throw new FieldError(`${shown(raw)} is not a party`);
  if (/^RGPD\b/i.test(s)) {
    return { kind: 'anonymised', name: s };
  }
  const none = /^-\s*-\s*(.*)$/.exec(s);
  if (none) {
    const name = none[1].trim();
    if (!name) throw new FieldError(`${shown(raw)} has neither tax number nor name`);
    return { kind: 'unidentified', name };
  }
  // A tax number: digits (Portuguese) or a foreign id made of capitals and digits, then a dash. A spaced dash
  // ends the number first, so a foreign id written with dashes stays whole ("52-0955532 - American …").
  const glued = /^([A-Za-z]{0,3}\d[\d.-]*)\s+-\s+(.*)$/.exec(s) ?? /^([A-Za-z]{0,3}\d[\dA-Za-z.]*)\s*-\s*(.*)$/.exec(s);
  if (glued) {
    const { nif, foreign } = checkNif(glued[1]);
    const name = glued[2].trim();
    if (!name) throw new FieldError(`${shown(raw)}: NIF ${nif} has no name`);
    return { kind: 'identified', nif, name, foreign };
  }
  if (/^\d{5,}$/.test(s)) throw new FieldError(`${shown(raw)}: NIF ${s} has no name`);
  return { kind: 'unidentified', name: s };
}

/** A party from a tax number and a name in two fields (the simplified CSV's NIPC_entidade_comunicante). */
export function partyFromParts(nifText: string | null, name: string | null): ParsedParty | null {
  if (nifText === null && name === null) return null;
  if (nifText === null) return { kind: 'unidentified', name: name ?? '' };
  if (/^RGPD\b/i.test(nifText)) return { kind: 'anonymised', name: name ?? nifText };
  const { nif, foreign } = checkNif(nifText);
  return { kind: 'identified', nif, name: name ?? nif, foreign };
}
