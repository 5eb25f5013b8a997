/**
 * Positional parameters built alongside the SQL text: `p.add(value)` gives the placeholder to write (`$3`).
 * Conditions assembled piece by piece never count placeholders by hand.
 */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards in it taken literally (`ESCAPE '\'`). */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** A LIKE pattern matching what starts with `text` (`ESCAPE '\'`). */
export function prefixPattern(text: string): string {
  return `${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
