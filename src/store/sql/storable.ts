/**
 * The one check of the text bound to a statement, run by both SQL ports before their driver: a string, or a
 * string in a list, holding U+0000 is refused (lib/storable-text.ts says why) — and so is a batch of rows
 * (`Dialect.rows`, bound as JSON text) one of whose values holds one, which JSON writes as the escape `\u0000`.
 */
import { nulTextPath, UnstorableTextError } from '../../lib/storable-text.js';

export function refuseUnstorable(values: readonly unknown[] | undefined): void {
  if (values === undefined) return;
  for (const value of values) {
    if (typeof value === 'string' ? holdsNul(value) : Array.isArray(value) && value.some(holdsNul)) {
      throw new UnstorableTextError();
    }
  }
}

function holdsNul(item: unknown): boolean {
  if (typeof item !== 'string') return false;
  if (item.includes('\u0000')) return true;
  // Only a batch's JSON (an array) can hold the escape for a value's NUL; it is parsed only when the escape is there,
  // so that text which merely spells out `\u0000` is still text.
  return item.startsWith('[') && item.includes('\\u0000') && jsonHoldsNul(item);
}

function jsonHoldsNul(text: string): boolean {
  try {
    return nulTextPath(JSON.parse(text)) !== null;
  } catch {
    return false;
  }
}
