/**
 * The municipalities nearest to a reference nobody knows, for the `suggestions` of its refusal: the same
 * typo-tolerant match as `procurement_lookup_municipalities` (name, slug or code), best first (docs/api.md, Errors).
 */
import type { ReferenceData } from '../../core/reference.js';
import type { Suggestion } from '../../lib/errors.js';
import { bestMatch, byRelevance } from '../../lib/name-match.js';

const MAX_SUGGESTIONS = 5;

export function closestMunicipalities(reference: ReferenceData, ref: string): Suggestion[] {
  return reference.municipalities
    .flatMap((m) => {
      const match = bestMatch(ref, [m.name, m.slug, m.code]);
      return match ? [{ ...match, code: m.code, slug: m.slug, name: m.name }] : [];
    })
    .sort(byRelevance((e) => e.code))
    .slice(0, MAX_SUGGESTIONS)
    .map(({ code, slug, name }) => ({ code, slug, name }));
}

/** " Did you mean Guimarães (0308)?" — or nothing when no name is near. */
export function didYouMean(suggestions: readonly Suggestion[]): string {
  if (suggestions.length === 0) return '';
  return ` Did you mean ${suggestions.map((s) => `${s.name} (${s.code})`).join(', ')}?`;
}
