/**
 * Per dialect: typo-tolerant lookup is FTS5 trigrams in SQLite and pg_trgm similarity in PostgreSQL.
 *
 * Candidates for an entity lookup (the caller scores them): tax numbers starting with the text, names starting
 * with it, names containing its words, and — for typos — names sharing the most letter trigrams with it.
 * Each kind of candidate is bounded, so a lookup costs the same however many entities there are.
 */

import { nameKey } from '../../../lib/text-match.js';
import type { EntityRecord } from '../../procurement-records.js';
import { toEntity } from '../../shared/entity-rows.js';
import { ENTITY_SELECT } from './entity-read.js';
import type { Row, Sql } from './sql.js';
import { ftsQuery, quoteTerm, trigrams } from './text-search.js';

const CANDIDATES_PER_KIND = 200;
/** A trigram found in more names than this tells little about which name was meant: it is left out. */
const COMMON_TRIGRAM = 5000;
const RAREST_TRIGRAMS = 8;

export function lookupEntityCandidates(sql: Sql, text: string, limit: number): EntityRecord[] {
  const key = nameKey(text);
  if (key === '') return [];
  const ids = new Set<number>();
  const add = (rows: Row[]) => {
    for (const row of rows) ids.add(Number(row.id));
  };
  const cap = Math.max(CANDIDATES_PER_KIND, limit);
  const compact = key.replace(/ /g, '');
  if (/^\d+$/.test(compact)) {
    add(sql("SELECT id FROM entities WHERE nif >= @q AND nif < @q || ':' ORDER BY nif LIMIT @cap").all({ q: compact, cap }) as Row[]);
  }
  add(
    sql(
      'SELECT id FROM entities INDEXED BY entities_by_name WHERE name_key >= @q AND name_key < @q || char(1114111) ORDER BY name_key LIMIT @cap',
    ).all({ q: key, cap }) as Row[],
  );
  const words = key.split(' ');
  const fts = ftsQuery(words);
  let containing = 0;
  if (fts !== undefined) {
    const rows = sql(
      'SELECT e.id, e.name_key FROM entities_fts f JOIN entities e ON e.id = f.rowid WHERE entities_fts MATCH @fts LIMIT @cap',
    ).all({ fts, cap }) as Row[];
    add(rows);
    containing = rows.filter((r) => words.every((w) => String(r.name_key).includes(w))).length;
  }
  // Typos are looked for in names only: a number with a wrong digit is another number.
  if (containing < limit && [...compact].length >= 4 && /\p{L}/u.test(compact)) add(similarNames(sql, key, cap));
  if (ids.size === 0) return [];
  return (
    sql(`SELECT ${ENTITY_SELECT} WHERE e.id IN (SELECT value FROM json_each(@ids))`).all({ ids: JSON.stringify([...ids]) }) as Row[]
  ).map(toEntity);
}

/**
 * Ids of the names sharing the most trigrams with the key, counted over its rarest trigrams only: a typo leaves
 * most of them intact, and a rare trigram narrows the names to a few, so the work stays bounded.
 */
function similarNames(sql: Sql, key: string, cap: number): Row[] {
  const grams = trigrams(key);
  const counts = sql('SELECT term, doc FROM entities_fts_terms WHERE term IN (SELECT value FROM json_each(@grams))').all({
    grams: JSON.stringify(grams),
  }) as Row[];
  const rarest = counts
    .filter((c) => Number(c.doc) <= COMMON_TRIGRAM)
    .sort((a, b) => Number(a.doc) - Number(b.doc))
    .slice(0, RAREST_TRIGRAMS)
    .map((c) => String(c.term));
  const shared = new Map<number, number>();
  for (const gram of rarest) {
    for (const row of sql('SELECT rowid AS id FROM entities_fts WHERE entities_fts MATCH @term').all({ term: quoteTerm(gram) }) as Row[]) {
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
