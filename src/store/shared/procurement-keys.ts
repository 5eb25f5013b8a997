/** The derived keys the procurement tables are searched by, computed the same way when writing and when asking. */
import { fold } from '../../lib/text-match.js';

/** A procedure type compared case-, accent- and spacing-insensitively ("Concurso  Público" = "concurso publico"). */
export function procedureKey(label: string): string {
  return fold(label).replace(/\s+/g, ' ').trim();
}

/**
 * The tax number a party is an entity under, or null: '' and placeholders ('-', 'RGPD', 'NULL') identify nobody.
 * Portuguese numbers are nine digits; foreign ids are letters and digits (at least one digit).
 */
export function entityNif(nif: string): string | null {
  const trimmed = nif.trim().toUpperCase();
  return /^[A-Z0-9-]{4,20}$/.test(trimmed) && /\d/.test(trimmed) ? trimmed : null;
}

/** The folded text `q` is matched against: the parts that say something, once each. */
export function searchText(...parts: (string | null | undefined)[]): string {
  const folded = parts.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => fold(p.trim()));
  return [...new Set(folded)].join(' \n ');
}
