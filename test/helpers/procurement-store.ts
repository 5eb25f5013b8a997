/** A fresh store (schema, plans, CPV vocabulary, the 308 municipalities) with no other data, in a temp dir. */
import { migrate } from '../../src/admin/migrate.js';
import { readMunicipalities } from '../../src/ingest/municipalities.js';
import type { Store } from '../../src/store/store.js';
import { openTestStore } from './backend.js';

export async function freshStore(): Promise<{ store: Store; dbPath: string }> {
  const { store, dbPath } = await openTestStore();
  await migrate(store);
  await store.saveMunicipalities(readMunicipalities());
  return { store, dbPath };
}

/** Case- and accent-folded text, as the service's `q` compares (written out here so tests do not trust src). */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** Descending by date (unknown dates last), then by the tie-breaker descending. */
export function newestFirst<T>(date: (x: T) => string | null, tie: (x: T) => number) {
  return (a: T, b: T) => {
    const da = date(a) ?? '';
    const db = date(b) ?? '';
    return da < db ? 1 : da > db ? -1 : tie(b) - tie(a);
  };
}
