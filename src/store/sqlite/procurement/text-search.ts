/**
 * Per dialect (FTS5 here, pg_trgm in PostgreSQL): the SQL of `q` differs, not only its plan. Where a list starts
 * reading is written once (../../procurement/text-search.ts) over what this file gives.
 *
 * `q` over the FTS5 trigram indexes (`contracts_fts`, `announcements_fts`, `entities_fts`, one per record table,
 * keyed by the record's id). The indexes keep no positions (detail=none: a third of the size), so a word is looked
 * up as "all of its trigrams occur" — a superset of "the word occurs", which is then checked exactly with `instr`
 * on the folded text column. Words shorter than three letters have no trigram: they are only checked that way.
 */
import type { TextSearch } from '../../procurement/text-search.js';
import type { TextSearchDdl } from '../../sql/migration.js';

/** Enough trigrams to make a long word selective; more only make the index work harder. */
const MAX_TRIGRAMS_PER_WORD = 8;

export const SQLITE_TEXT_SEARCH: TextSearch = {
  wordConditions: (column, words, p) => words.map((word) => `instr(${column}, ${p.add(word)}) > 0`),
  matches(table, words) {
    const query = ftsQuery(words);
    if (query === undefined) return undefined;
    return { from: `${table}_fts f`, where: (p) => `${table}_fts MATCH ${p.add(query)}` };
  },
};

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

/**
 * The FTS5 tables `q` reads: contentless (the folded text is in the record's `search_text`), trigram tokens without
 * positions, one row per record keyed by its integer id, which is why entities (keyed by tax number) also have one.
 */
export const SQLITE_TEXT_SEARCH_DDL: TextSearchDdl = {
  setup: '',
  naturalKey: (column, type) =>
    `id INTEGER PRIMARY KEY, -- a stable rowid for the text index\n  ${column} ${type} NOT NULL UNIQUE`,
  index: (table) => `CREATE VIRTUAL TABLE ${table}_fts USING fts5 (
  text, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1', detail = 'none'
);`,
  // How many names hold each trigram: lookups for typos start from the rare trigrams of what was typed.
  entityNames: 'CREATE VIRTUAL TABLE entities_fts_terms USING fts5vocab (entities_fts, row);',
};
