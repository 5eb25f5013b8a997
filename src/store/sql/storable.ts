/**
 * The one check of the text bound to a statement, run by both SQL ports before their driver: a string, or a
 * string in a list, holding U+0000 is refused (lib/storable-text.ts says why).
 */
import { UnstorableTextError } from '../../lib/storable-text.js';

export function refuseUnstorable(values: readonly unknown[] | undefined): void {
  if (values === undefined) return;
  for (const value of values) {
    if (typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some(holdsNul)) {
      throw new UnstorableTextError();
    }
  }
}

const holdsNul = (item: unknown) => typeof item === 'string' && item.includes('\u0000');
