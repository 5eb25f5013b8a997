/**
 * Text a store can hold: anything but U+0000. PostgreSQL's text cannot hold a NUL (it failed the statement, a 500
 * on every surface that passed one on), and SQLite is held to the same rule so that both stores answer alike.
 * The SQL port of both refuses a bound value holding one with `UnstorableTextError` (store/sql/storable.ts), so
 * nothing stored ever holds a NUL and no statement reaches a database with one; each surface answers the error in
 * its own form (docs/architecture.md, "Text the stores hold").
 */

export function isStorableText(value: string): boolean {
  return !value.includes('\u0000');
}

/**
 * Where a value read from JSON holds a NUL in a text: the path to the first such text (`evidence.0.excerpt_pt`; ''
 * for the value itself), or null when none does.
 */
export function nulTextPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path;
  if (typeof value !== 'object' || value === null) return null;
  for (const [name, field] of Object.entries(value)) {
    const found = nulTextPath(field, path === '' ? name : `${path}.${name}`);
    if (found !== null) return found;
  }
  return null;
}

export class UnstorableTextError extends Error {
  /** Fastify's mark of a client error: a page's error handler (the console's) answers it as a 400. */
  readonly statusCode = 400;

  constructor() {
    super('Text holding a NUL character (U+0000) names nothing here and cannot be stored.');
    this.name = 'UnstorableTextError';
  }
}

/**
 * The answer of a lookup by a name the caller gave: a name holding a NUL names nothing stored, so it finds
 * nothing (the surface's "not found": 404, -32001, an OAuth grant or client that does not exist).
 */
export async function lookUp<T>(find: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await find();
  } catch (error) {
    if (error instanceof UnstorableTextError) return undefined;
    throw error;
  }
}
