/**
 * The values an argument of a resource template or a prompt may take, for `completion/complete`: what a person
 * typed (a name, a word, the start of a code) becomes codes, best first — the same typo-, case- and accent-tolerant
 * match as the lookups and the suggestions of a refusal (lib/name-match.ts). docs/mcp.md, Completions.
 */
import type { Core } from '../../../core/core.js';
import { bestMatch, byRelevance } from '../../../lib/name-match.js';

/** What an argument names, and so where its values come from. `none`: an id nothing suggests (found with tools). */
export type ArgumentKind = 'municipality' | 'indicator' | 'entity' | 'cpv' | 'district' | 'language' | 'none';

/** The most values one completion answers (server/utilities/completion). */
export const MAX_VALUES = 100;

/** The languages the prompts are written in. */
export const PROMPT_LANGUAGES = ['pt', 'en'] as const;

export interface ArgumentValues {
  /** Best first; at most MAX_VALUES. */
  readonly values: string[];
  /** How many values match in all. */
  readonly total: number;
}

interface Candidate {
  readonly value: string;
  readonly name: string;
  readonly names: readonly string[];
}

export async function argumentValues(core: Core, kind: ArgumentKind, typed: string): Promise<ArgumentValues> {
  return ranked(typed, await candidates(core, kind, typed));
}

async function candidates(core: Core, kind: ArgumentKind, typed: string): Promise<readonly Candidate[]> {
  switch (kind) {
    case 'municipality':
      return (await core.reference()).municipalities.map((m) => ({
        value: m.code,
        name: m.name,
        names: [m.name, m.slug, m.code],
      }));
    case 'indicator':
      return (await core.reference()).indicators.map((i) => ({
        value: i.key,
        name: i.key,
        names: [i.key, i.name, i.name_pt],
      }));
    case 'district': {
      const districts = new Set((await core.reference()).municipalities.map((m) => m.district));
      return [...districts].map((d) => ({ value: d, name: d, names: [d] }));
    }
    case 'entity':
      // An empty text matches no entity: there are tens of thousands, none better than another.
      if (typed.trim() === '') return [];
      return (await core.lookupEntities(typed, MAX_VALUES)).map((e) => ({
        value: e.nif,
        name: e.name,
        names: [e.name, e.nif],
      }));
    case 'cpv':
      return (await core.cpvVocabulary()).map((c) => ({
        value: c.code,
        name: c.code,
        names: [c.code, c.label_pt ?? '', c.label_en ?? ''],
      }));
    case 'language':
      return PROMPT_LANGUAGES.map((l) => ({ value: l, name: l, names: [l] }));
    case 'none':
      return [];
  }
}

/** Every candidate when nothing is typed (in their own order); else those that match, best first. */
function ranked(typed: string, all: readonly Candidate[]): ArgumentValues {
  if (typed.trim() === '') return { values: all.slice(0, MAX_VALUES).map((c) => c.value), total: all.length };
  const matches = all.flatMap((c) => {
    const match = bestMatch(typed, c.names);
    return match ? [{ ...match, name: c.name, value: c.value }] : [];
  });
  matches.sort(byRelevance((m) => m.value));
  return { values: matches.slice(0, MAX_VALUES).map((m) => m.value), total: matches.length };
}
