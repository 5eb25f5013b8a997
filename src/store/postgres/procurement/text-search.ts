/**
 * Per dialect (pg_trgm here, FTS5 in SQLite): the SQL of `q` differs, not only its plan. Where a list starts
 * reading is written once (../../procurement/text-search.ts) over what this file gives.
 *
 * `q` on PostgreSQL: each folded word must occur in the record's folded text column, as `LIKE '%word%'` — an exact
 * substring test that the column's pg_trgm GIN index answers (words shorter than three letters are checked row by
 * row). The index is on the column itself, so there is no separate set of matches to start from: the planner
 * weighs the index against walking the list's order (`dialect.weighsIndexes`).
 */
import type { TextSearch } from '../../procurement/text-search.js';
import type { TextSearchDdl } from '../../sql/migration.js';
import { containsPattern, type Params } from '../../sql/params.js';

export function wordConditions(column: string, words: readonly string[], p: Params): string[] {
  return words.map((word) => `${column} LIKE ${p.add(containsPattern(word))}`);
}

export const POSTGRES_TEXT_SEARCH: TextSearch = { wordConditions, matches: () => undefined };

/** pg_trgm's GIN indexes on the folded columns themselves: `search_text` for `q`, `name_key` for the lookups. */
export const POSTGRES_TEXT_SEARCH_DDL: TextSearchDdl = {
  setup: 'CREATE EXTENSION IF NOT EXISTS pg_trgm;',
  naturalKey: (column, type) => `${column} ${type} PRIMARY KEY`,
  index: (table) => `CREATE INDEX ${table}_text ON ${table} USING gin (search_text gin_trgm_ops);`,
  entityNames: 'CREATE INDEX entities_name_trigrams ON entities USING gin (name_key gin_trgm_ops);',
};
