/**
 * `q`: full-text search as each dialect's store provides it (FTS5 trigram tables in SQLite, a pg_trgm index on the
 * text column in PostgreSQL: ../sqlite/procurement/text-search.ts, ../postgres/procurement/text-search.ts), and
 * where a list filtered by words starts reading, written once.
 */
import type { Params } from '../sql/params.js';
import type { SqlPort } from '../sql/port.js';
import { isSmallSet } from './keyset.js';

/** The tables whose records have a folded text column (`search_text`) and a text index. */
export type TextTable = 'contracts' | 'announcements' | 'entities';

export interface TextSearch {
  /** Exact: each folded word occurs in the folded text `column` (what `q` means). */
  wordConditions(column: string, words: readonly string[], p: Params): string[];
  /**
   * The records of `table` whose text the text index matches — a superset of those holding the words, which
   * `wordConditions` still checks — when the index is a table of its own and the words give it something to look
   * up; undefined otherwise.
   */
  matches(table: TextTable, words: readonly string[]): TextMatches | undefined;
}

export interface TextMatches {
  /** The text index under the alias `f`; `f.rowid` is the id of the record matched. */
  from: string;
  /** The condition that selects the matches. */
  where(p: Params): string;
}

/**
 * Where a list whose filter has `words` starts reading:
 * - the text index's matches, when they are few (`SMALL_SET`, counted: SQLite);
 * - `planner`: the list's own table with the words as conditions, where the planner weighs the text index
 *   against the list's order itself (`dialect.weighsIndexes`: PostgreSQL);
 * - undefined: no words, many matches, or no word the index can look up. The other filters choose the source,
 *   and the words are checked on its rows.
 */
export async function textStart(
  port: SqlPort,
  search: TextSearch,
  table: TextTable,
  words: readonly string[] | undefined,
): Promise<TextMatches | 'planner' | undefined> {
  if (!words || words.length === 0) return undefined;
  if (port.dialect.weighsIndexes) return 'planner';
  const matches = search.matches(table, words);
  if (matches && (await isSmallSet(port, matches.from, (p) => [matches.where(p)]))) return matches;
  return undefined;
}
