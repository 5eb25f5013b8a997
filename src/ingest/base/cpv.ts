/**
 * CPV codes as BASE writes them: `"34144900-7 - Veículos eléctricos"`, or the code alone (`34144900-7`,
 * `34144900`). We keep the eight digits. The ninth (check) digit is dropped, not verified: its algorithm is not
 * part of the published CPV regulation, and the eight digits identify the code on their own.
 */
import { FieldError, shown, text } from './values.js';

const CPV = /^(\d{8})(?:\s*-\s*(\d))?(?:\s*-\s*(.*))?$/s;

export function parseCpv(raw: string): string {
  const s = text(raw);
  if (s === null) throw new FieldError(`${shown(raw)} is not a CPV code`);
  const m = CPV.exec(s);
  if (!m) throw new FieldError(`${shown(raw)} is not a CPV code`);
  return m[1];
}

/** Does this piece of a flattened cell start like a CPV entry? (used to split `;`-joined cells) */
export function looksLikeCpv(piece: string): boolean {
  return /^\d{8}\b/.test(piece);
}
