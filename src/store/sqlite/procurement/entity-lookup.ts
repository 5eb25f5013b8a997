/**
 * Per dialect: typo-tolerant lookup is FTS5 trigrams in SQLite and pg_trgm similarity in PostgreSQL.
 *
 * Candidates for an entity lookup (the caller scores them): tax numbers starting with the text, names starting
 * with it, names containing its words, and — for typos — names sharing the most letter trigrams with it.
 * Each kind of candidate is bounded, so a lookup costs the same however many entities there are.
 */

import { nameKey } from '../../../lib/text-match.js';
import { entitySelect } from '../../procurement/entity-read.js';
import type { EntityRecord } from '../../procurement-records.js';
import { toEntity } from '../../shared/entity-rows.js';
import type { Row, SqlPort } from '../../sql/port.js';
import { ftsQuery, quoteTerm, trigrams } from './text-search.js';

const CANDIDATES_PER_KIND = 200;
/** A trigram found in more names than this tells little about which name was meant: it is left out. */
const COMMON_TRIGRAM = 5000;
const RAREST_TRIGRAMS = 8;

export async function lookupEntityCandidates(port: SqlPort, text: string, limit: number): Promise<EntityRecord[]> {
  const key = nameKey(text);
  if (key === '') return [];
  const ids = new Set<number>();
  const add = (rows: Row[]) => {
    for (const row of rows) ids.add(Number(row.id));
  };
  const cap = Math.max(CANDIDATES_PER_KIND, limit);
  const compact = key.replace(/ /g, '');
  if (/^\d+$/.test(compact)) {
    add(
      await port.query("SELECT id FROM entities WHERE nif >= $1 AND nif < $1 || ':' ORDER BY nif LIMIT $2", [
        compact,
        cap,
      ]),
    );
  }
  add(
    await port.query(
      'SELECT id FROM entities INDEXED BY entities_by_name ' +
        'WHERE name_key >= $1 AND name_key < $1 || char(1114111) ORDER BY name_key LIMIT $2',
      [key, cap],
    ),
  );
  const words = key.split(' ');
  const fts = ftsQuery(words);
  let containing = 0;
  if (fts !== undefined) {
    const rows = await port.query(
      'SELECT e.id, e.name_key FROM entities_fts f JOIN entities e ON e.id = f.rowid ' +
        'WHERE entities_fts MATCH $1 LIMIT $2',
      [fts, cap],
    );
    add(rows);
    containing = rows.filter((r) => words.every((w) => String(r.name_key).includes(w))).length;
  }
  // Typos are looked for in names only: a number with a wrong digit is another number.
  if (containing < limit && [...compact].length >= 4 && /\p{L}/u.test(compact)) add(await similarNames(port, key, cap));
  if (ids.size === 0) return [];
  return (await port.query(`${entitySelect()} WHERE ${port.dialect.inList('e.id', '$1')}`, [[...ids]])).map(toEntity);
}

/**
 * Ids of the names sharing the most trigrams with the key, counted over its rarest trigrams only: a typo leaves
 * most of them intact, and a rare trigram narrows the names to a few, so the work stays bounded.
 */
async function similarNames(port: SqlPort, key: string, cap: number): Promise<Row[]> {
  const grams = trigrams(key);
  const counts = await port.query(
    `SELECT term, doc FROM entities_fts_terms WHERE ${port.dialect.inList('term', '$1')}`,
    [grams],
  );
  const rarest = counts
    .filter((c) => Number(c.doc) <= COMMON_TRIGRAM)
    .sort((a, b) => Number(a.doc) - Number(b.doc))
    .slice(0, RAREST_TRIGRAMS)
    .map((c) => String(c.term));
  const shared = new Map<number, number>();
  for (const gram of rarest) {
    for (const row of await port.query('SELECT rowid AS id FROM entities_fts WHERE entities_fts MATCH $1', [
      quoteTerm(gram),
    ])) {
      shared.set(Number(row.id), (shared.get(Number(row.id)) ?? 0) + 1);
    }
  }
  const enough = Math.min(2, rarest.length);
  return [...shared.entries()]
    .filter(([, n]) => n >= enough)
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, cap)
    .map(([id]) => ({ id }));
}
