/**
 * How well a text typed by a person matches a record known under a few names (a municipality's name, slug and
 * code; an entity's name and tax number; a bulk dataset's name). Texts are compared as name keys (folded,
 * punctuation as spaces), so case, accents and hyphens never matter. Kinds, best first, with a score in 0–1:
 *
 *   exact     the whole name                                   1
 *   prefix    the name starts with the text                    0.75–0.95 (the more of the name typed, the higher)
 *   contains  every word of the text occurs in the name        0.50–0.70
 *   fuzzy     within a few typos (insertions, deletions, substitutions, swapped neighbours) of the name or of a
 *             run of its words: up to 0.45, less per typo; only for texts with letters (a wrong digit: another number)
 */

import { nameKey } from './text-match.js';

export const MATCH_KINDS = ['exact', 'prefix', 'contains', 'fuzzy'] as const;

export type MatchKind = (typeof MATCH_KINDS)[number];

export interface Match {
  match: MatchKind;
  score: number;
}

/** The best match of the text against any of the names, or undefined when none matches. */
export function bestMatch(text: string, names: readonly string[]): Match | undefined {
  const query = nameKey(text);
  if (query === '') return undefined;
  let best: Match | undefined;
  for (const name of names) {
    const match = matchKey(query, nameKey(name));
    if (match && (!best || match.score > best.score)) best = match;
  }
  return best;
}

function matchKey(query: string, name: string): Match | undefined {
  if (name === '') return undefined;
  const coverage = Math.min(1, query.length / name.length);
  if (name === query) return { match: 'exact', score: 1 };
  if (name.startsWith(query)) return { match: 'prefix', score: round(0.75 + 0.2 * coverage) };
  if (query.split(' ').every((word) => name.includes(word)))
    return { match: 'contains', score: round(0.5 + 0.2 * coverage) };
  const allowed = typosAllowed(query);
  if (allowed === 0) return undefined;
  const distance = closestWindow(query, name, allowed);
  if (distance > allowed) return undefined;
  return { match: 'fuzzy', score: round(0.45 * (1 - distance / query.length)) };
}

/** Short texts must be typed right: one typo in three letters is another word. Numbers (codes, tax numbers) too. */
function typosAllowed(query: string): number {
  if (!/\p{L}/u.test(query)) return 0;
  const length = query.replace(/ /g, '').length;
  return length <= 3 ? 0 : length <= 5 ? 1 : length <= 9 ? 2 : 3;
}

/**
 * The fewest typos between the query and the name, or the start of the name, or a run of its words (so that
 * "gaiia" finds "Vila Nova de Gaia" and "lisbao" finds "Lisboa").
 */
function closestWindow(query: string, name: string, allowed: number): number {
  const windows = new Set([name, name.slice(0, query.length)]);
  const words = name.split(' ');
  for (let i = 0; i < words.length; i++) {
    let run = '';
    for (let j = i; j < words.length; j++) {
      run = j === i ? words[j] : `${run} ${words[j]}`;
      if (run.length > query.length + allowed) break;
      if (run.length >= query.length - allowed) windows.add(run);
    }
  }
  let best = Number.POSITIVE_INFINITY;
  for (const window of windows) best = Math.min(best, typos(query, window, allowed));
  return best;
}

/**
 * Optimal string alignment distance (Levenshtein plus swapped neighbours), abandoned once every path exceeds
 * `limit` (then some value above it is returned).
 */
export function typos(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}

/** Best first: by score, then by name, then by id. */
export function byRelevance<T extends Match & { name: string }>(idOf: (entry: T) => string) {
  return (a: T, b: T) => b.score - a.score || a.name.localeCompare(b.name, 'pt') || (idOf(a) < idOf(b) ? -1 : 1);
}
