/**
 * The five matchers (`matcher_type`, docs/alerts.md). Each says whether an item is what a rule looks for and how
 * strongly (0–1); the score of a match is that strength times the signal's confidence when the item is a signal
 * (a doubtful signal is a weaker match), and the strength alone for a procurement record. docs/alerts.md has the table.
 */

import type { MatcherType } from '../lib/vocabulary.js';
import { INTEGRITY, INTEGRITY_HEDGE_PT } from '../signals/catalogue.js';
import type { MatcherParams } from '../store/signal-records.js';
import type { AlertItem, ItemCpv, ItemParty } from './item.js';
import { type KeywordHit, matchKeywords, shorten } from './keyword.js';

export interface MatchOutcome {
  /** 0–1: how strongly the item is what the rule looks for. */
  strength: number;
  snippet: string | null;
  /** What matched, for the judge. */
  keyword?: KeywordHit;
  cpv?: ItemCpv;
  parties?: ItemParty[];
}

export interface Matcher {
  matcher_type: MatcherType;
  params: MatcherParams;
}

export function matchItem(rule: Matcher, item: AlertItem): MatchOutcome | null {
  switch (rule.matcher_type) {
    case 'keyword':
      return keyword(rule.params, item);
    case 'cpv':
      return cpv(rule.params, item);
    case 'entity':
      return entity(rule.params, item);
    case 'signal_type':
      return signalType(rule.params, item);
    case 'indicator_threshold':
      return indicatorThreshold(rule.params, item);
  }
}

/** The match's score: strength × the signal's confidence for a signal, rounded to 3 decimals. */
export function matchScore(outcome: MatchOutcome, item: AlertItem): number {
  const confidence = item.signal ? item.signal.confidence : 1;
  return Math.round(outcome.strength * confidence * 1000) / 1000;
}

/** The words in the headline: 1; some in the headline, some in the body: 0.8; only in the body: 0.6. */
const KEYWORD_STRENGTH = { headline: 1, mixed: 0.8, body: 0.6 } as const;

function keyword(params: MatcherParams, item: AlertItem): MatchOutcome | null {
  const hit = matchKeywords(params.keywords ?? [], item);
  return hit && { strength: KEYWORD_STRENGTH[hit.place], snippet: hit.snippet, keyword: hit };
}

/** The longest prefix that matches one of the item's CPVs: a division (2 digits) 0.625 … a full code (8) 1. */
function cpv(params: MatcherParams, item: AlertItem): MatchOutcome | null {
  let best: { prefix: string; cpv: ItemCpv } | null = null;
  for (const prefix of params.cpv_prefixes ?? []) {
    if (best && best.prefix.length >= prefix.length) continue;
    const found = item.cpvs.find((c) => c.code.startsWith(prefix));
    if (found) best = { prefix, cpv: found };
  }
  if (!best) return null;
  const snippet = `CPV ${best.cpv.code}${best.cpv.label_pt ? ` ${best.cpv.label_pt}` : ''}`;
  return { strength: 0.5 + (0.5 * Math.min(best.prefix.length, 8)) / 8, snippet, cpv: best.cpv };
}

const ROLE_PT = { buyer: 'Entidade adjudicante', supplier: 'Adjudicatário', party: 'Entidade' } as const;

/** A watched tax number among the item's parties: an exact identity, strength 1. */
function entity(params: MatcherParams, item: AlertItem): MatchOutcome | null {
  const watched = new Set(params.nifs ?? []);
  const parties = item.parties.filter((p) => watched.has(p.nif));
  if (parties.length === 0) return null;
  const snippet = parties.map((p) => `${ROLE_PT[p.role]}: ${p.name ? `${p.name} ` : ''}(NIF ${p.nif})`).join('; ');
  return { strength: 1, snippet, parties };
}

/**
 * A signal of a watched type or family, at least as confident as `min_confidence` when the rule gives one: strength
 * 1 (the score is then the signal's confidence).
 */
function signalType(params: MatcherParams, item: AlertItem): MatchOutcome | null {
  const signal = item.signal;
  if (!signal) return null;
  const watched =
    (params.signal_types ?? []).includes(signal.type) || (params.signal_families ?? []).includes(signal.family);
  if (!watched || signal.confidence < (params.min_confidence ?? 0)) return null;
  return { strength: 1, snippet: signalSnippet(item) };
}

/**
 * An indicator signal whose observed value is above `above` (strictly) or below `below` (strictly). Strength
 * grows with how far past the bound the value is: 0.5 at the bound, 1 at twice (or half) the bound and beyond.
 */
function indicatorThreshold(params: MatcherParams, item: AlertItem): MatchOutcome | null {
  const subject = item.signal?.subject;
  const value = subject?.indicator_value;
  if (!subject || subject.indicator !== params.indicator || value === null || value === undefined) return null;
  const crossed =
    params.above !== undefined && value > params.above
      ? { bound: params.above, word: 'acima de' }
      : params.below !== undefined && value < params.below
        ? { bound: params.below, word: 'abaixo de' }
        : null;
  if (!crossed) return null;
  const excess = crossed.bound === 0 ? 1 : Math.abs(value - crossed.bound) / Math.abs(crossed.bound);
  const titled = item.title ? ` — ${item.title}` : '';
  const snippet = `${subject.indicator} = ${value} (${crossed.word} ${crossed.bound})${titled}`;
  return { strength: 0.5 + 0.5 * Math.min(1, excess), snippet };
}

const SNIPPET = 280;

/**
 * The signal's summary, cut to SNIPPET characters; an integrity flag's keeps its hedge whole ("É um indício…, não uma
 * acusação."), which the cut of a long summary (a party and a contract named in full) would otherwise drop.
 */
function signalSnippet(item: AlertItem): string | null {
  const text = item.body || item.headline;
  if (!text) return null;
  if (item.signal?.family !== INTEGRITY || !text.includes(INTEGRITY_HEDGE_PT)) return shorten(text, SNIPPET);
  const before = text.slice(0, text.indexOf(INTEGRITY_HEDGE_PT)).trim();
  const hedge = `${INTEGRITY_HEDGE_PT}.`;
  return `${shorten(before, SNIPPET - hedge.length - 1)} ${hedge}`;
}
