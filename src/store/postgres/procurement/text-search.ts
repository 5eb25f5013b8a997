/**
 * Per dialect: full-text search is FTS5 in SQLite and pg_trgm in PostgreSQL.
 *
 * `q` on PostgreSQL: each folded word must occur in the record's folded text column, as `LIKE '%word%'` — an exact
 * substring test that the column's pg_trgm GIN index answers (words shorter than three letters are checked row by
 * row). The planner weighs the index against walking the list's order, as SQLite's store does by hand.
 */
import type { TextSearch } from '../../procurement/text-search.js';
import { containsPattern, type Params } from '../db.js';

export function wordConditions(column: string, words: readonly string[], p: Params): string[] {
  return words.map((word) => `${column} LIKE ${p.add(containsPattern(word))}`);
}

/** `q` in PostgreSQL: the trigram index is on the text column itself, so there is no separate set of matches. */
export const POSTGRES_TEXT_SEARCH: TextSearch = { wordConditions, matches: () => undefined };
