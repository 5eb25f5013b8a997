/**
 * Per dialect: typo-tolerant lookup is FTS5 trigrams in SQLite and pg_trgm similarity in PostgreSQL.
 *
 * Candidates for an entity lookup (the caller scores them): tax numbers starting with the text, names starting
 * with it, names containing its words, and — for typos — the names most similar to it by pg_trgm's word
 * similarity (the text against the best-matching run of a name), through the trigram index. Each kind of
 * candidate is bounded, so a lookup costs the same however many entities there are.
 */
import { nameKey } from '../../../lib/text-match.js';
import { loadEntities } from '../../procurement/entity-read.js';
import type { EntityRecord } from '../../procurement-records.js';
import { Params, prefixPattern } from '../../sql/params.js';
import type { Row, SqlPort } from '../../sql/port.js';
import { wordConditions } from './text-search.js';

const CANDIDATES_PER_KIND = 200;

export async function lookupEntityCandidates(port: SqlPort, text: string, limit: number): Promise<EntityRecord[]> {
  const key = nameKey(text);
  if (key === '') return [];
  const cap = Math.max(CANDIDATES_PER_KIND, limit);
  const compact = key.replace(/ /g, '');
  const words = key.split(' ');
  const p = new Params();
  const containingWhere = wordConditions('search_text', words, p).join(' AND ');
  const [byNumber, byStart, containing] = await Promise.all([
    /^\d+$/.test(compact)
      ? port.query('SELECT nif FROM entities WHERE nif LIKE $1 ORDER BY nif LIMIT $2', [prefixPattern(compact), cap])
      : [],
    port.query('SELECT nif FROM entities WHERE name_key LIKE $1 ORDER BY name_key LIMIT $2', [prefixPattern(key), cap]),
    port.query(`SELECT nif, name_key FROM entities WHERE ${containingWhere} LIMIT ${p.add(cap)}`, p.values),
  ]);
  const nifs = new Set<string>();
  const add = (rows: Row[]) => {
    for (const row of rows) nifs.add(String(row.nif));
  };
  add(byNumber);
  add(byStart);
  add(containing);
  const contained = containing.filter((r) => words.every((w) => String(r.name_key).includes(w))).length;
  // Typos are looked for in names only: a number with a wrong digit is another number. `<%` is true above
  // pg_trgm.word_similarity_threshold, which the store's connections set (db.ts).
  if (contained < limit && [...compact].length >= 4 && /\p{L}/u.test(compact)) {
    add(
      await port.query(
        'SELECT nif FROM entities WHERE $1 <% name_key ORDER BY word_similarity($1, name_key) DESC, nif LIMIT $2',
        [key, cap],
      ),
    );
  }
  return loadEntities(port, [...nifs]);
}
