/**
 * Keyword phrases, with the meaning every free-text `q` has (src/core/text-match.ts): a phrase matches when each
 * of its words occurs, case- and accent-insensitively, as a substring of the item's text. Where the words occur
 * decides the strength: all in the headline (the object, a signal's title) is the item being about the phrase;
 * some only in the body (a description, an amendment's reason) may be a passing mention.
 */
import { fold, matchesTokens, queryTokens } from '../lib/text-match.js';
import type { AlertItem } from './item.js';

/**
 * `headline`: every word in the headline; `mixed`: some in the headline, some in the body; `body`: none in the
 * headline.
 */
export type KeywordPlace = 'headline' | 'mixed' | 'body';

export interface KeywordHit {
  phrase: string;
  place: KeywordPlace;
  /** The text around the words, from the field where the first of them occurs. */
  snippet: string;
}

const PLACE_RANK: Record<KeywordPlace, number> = { headline: 3, mixed: 2, body: 1 };

/** The best-placed phrase that matches, or null. */
export function matchKeywords(phrases: readonly string[], item: AlertItem): KeywordHit | null {
  const { headline, body } = foldedText(item);
  let best: KeywordHit | null = null;
  for (const phrase of phrases) {
    const tokens = queryTokens(phrase);
    if (tokens.length === 0 || !matchesTokens(tokens, `${headline}\n${body}`)) continue;
    const inHeadline = tokens.filter((t) => headline.includes(t)).length;
    const place: KeywordPlace = inHeadline === tokens.length ? 'headline' : inHeadline > 0 ? 'mixed' : 'body';
    if (best && PLACE_RANK[best.place] >= PLACE_RANK[place]) continue;
    const text = place === 'body' ? item.body : item.headline;
    best = { phrase, place, snippet: snippetAround(text, tokens) };
  }
  return best;
}

/** An item's text folded once, however many keyword rules read it. */
const FOLDED = new WeakMap<AlertItem, { headline: string; body: string }>();

function foldedText(item: AlertItem): { headline: string; body: string } {
  let folded = FOLDED.get(item);
  if (!folded) {
    folded = { headline: fold(item.headline), body: fold(item.body) };
    FOLDED.set(item, folded);
  }
  return folded;
}

const SNIPPET_CONTEXT = 60;
const SNIPPET_SPAN = 160;

/**
 * The part of `text` around the words: from the first occurrence of the first word found to the last word's,
 * when they lie close together (else around the first alone), with about 60 characters either side, cut at
 * spaces and marked with "…" where cut.
 */
export function snippetAround(text: string, tokens: readonly string[]): string {
  const { folded, offsets } = foldWithOffsets(text);
  const spans = tokens
    .map((t) => ({ at: folded.indexOf(t), length: t.length }))
    .filter((s) => s.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (spans.length === 0) return shorten(text, SNIPPET_SPAN + 2 * SNIPPET_CONTEXT);
  const first = spans[0];
  const last = spans.reduce((end, s) => Math.max(end, s.at + s.length), 0);
  const endFolded = last - first.at <= SNIPPET_SPAN ? last : first.at + first.length;
  const start = offsets[first.at];
  const end = endFolded < offsets.length ? offsets[endFolded] : text.length;
  return excerpt(text, start, end);
}

/** `text[start, end)` with context either side, cut at whitespace. */
function excerpt(text: string, start: number, end: number): string {
  let from = Math.max(0, start - SNIPPET_CONTEXT);
  let to = Math.min(text.length, end + SNIPPET_CONTEXT);
  if (from > 0) {
    const space = text.indexOf(' ', from);
    if (space >= 0 && space < start) from = space + 1;
  }
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to);
    if (space >= end) to = space;
  }
  const core = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${core}${to < text.length ? '…' : ''}`;
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const space = flat.lastIndexOf(' ', max);
  return `${flat.slice(0, space > max / 2 ? space : max)}…`;
}

/**
 * `fold(text)` with, for each character of the folded text, the index of the character of `text` it came from,
 * so that a position found in the folded text can be shown in the original.
 */
function foldWithOffsets(text: string): { folded: string; offsets: number[] } {
  let folded = '';
  const offsets: number[] = [];
  let index = 0;
  for (const char of text) {
    const f = fold(char);
    folded += f;
    for (let i = 0; i < f.length; i++) offsets.push(index);
    index += char.length;
  }
  return { folded, offsets };
}
