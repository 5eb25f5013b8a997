/**
 * Per dialect: full-text search is FTS5 in SQLite and pg_trgm in PostgreSQL.
 *
 * `q` over the FTS5 trigram indexes. The indexes keep no positions (detail=none: a third of the size), so a word
 * is looked up as "all of its trigrams occur" — a superset of "the word occurs", which the caller then checks
 * exactly with `instr` on the folded text column. Words shorter than three letters have no trigram: they are
 * only checked that way.
 */
import type { TextSearch } from '../../procurement/text-search.js';
import type { Sql } from './sql.js';

/** `q` in SQLite: exact checks with `instr`, and the FTS5 table of each record table (`contracts_fts`, …) as its matches. */
export const SQLITE_TEXT_SEARCH: TextSearch = {
  wordConditions: (column, words, p) => words.map((word) => `instr(${column}, ${p.add(word)}) > 0`),
  matches(table, words) {
    const query = ftsQuery(words);
    if (query === undefined) return undefined;
    return { from: `${table}_fts f`, where: (p) => `${table}_fts MATCH ${p.add(query)}` };
  },
};

/** Above this many FTS matches, walking a list's ordered index and checking the text is cheaper than sorting matches. */
export const TEXT_SET_LIMIT = 1000;
/** Enough trigrams to make a long word selective; more only make the index work harder. */
const MAX_TRIGRAMS_PER_WORD = 8;

export function trigrams(word: string): string[] {
  const chars = [...word];
  const all = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) all.add(chars.slice(i, i + 3).join(''));
  return [...all];
}

/** The FTS5 query for folded words (every trigram of every word), or undefined when no word has three letters. */
export function ftsQuery(words: readonly string[]): string | undefined {
  const terms = new Set<string>();
  for (const word of words) {
    const grams = trigrams(word);
    // Spread over the word rather than its start: "construcao" keeps trigrams from both ends.
    const step = Math.max(1, grams.length / MAX_TRIGRAMS_PER_WORD);
    for (let i = 0; i < grams.length && terms.size < 64; i += step) terms.add(grams[Math.floor(i)]);
  }
  if (terms.size === 0) return undefined;
  return [...terms].map(quoteTerm).join(' AND ');
}

export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/** The exact check of each word on a folded text column, with its parameters (`@w0`, `@w1`, …). */
export function wordConditions(column: string, words: readonly string[]): { conditions: string[]; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const conditions = words.map((word, i) => {
    params[`w${i}`] = word;
    return `instr(${column}, @w${i}) > 0`;
  });
  return { conditions, params };
}

/** Whether at most `TEXT_SET_LIMIT` rows of `table` match: then the matches are the cheapest place to start. */
export function isSmallTextSet(sql: Sql, table: string, query: string): boolean {
  const row = sql(`SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${table} MATCH @query LIMIT @cap)`).get({
    query,
    cap: TEXT_SET_LIMIT + 1,
  }) as { n: number };
  return row.n <= TEXT_SET_LIMIT;
}
