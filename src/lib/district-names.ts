/**
 * A district (or autonomous region) as a person names it: the data's own name with case, accents and hyphens
 * ignored (`braga`, `Região Autónoma dos Açores`), or the usual short name of an autonomous region, which the data
 * names in full (docs/api.md, Series and snapshots). An unknown one gets the nearest names, by the typo-tolerant
 * match of the municipality lookups (lib/name-match.ts).
 */
import { bestMatch, byRelevance } from './name-match.js';
import { nameKey } from './text-match.js';

/** The short names of the two autonomous regions → their names in the data. */
export const REGION_SHORT_NAMES: Readonly<Record<string, string>> = {
  Açores: 'Região Autónoma dos Açores',
  Azores: 'Região Autónoma dos Açores',
  Madeira: 'Região Autónoma da Madeira',
};

const MAX_SUGGESTIONS = 3;

/** The names a district is known by: its own, and a region's short names. */
function namesOf(district: string): string[] {
  return [district, ...Object.keys(REGION_SHORT_NAMES).filter((short) => REGION_SHORT_NAMES[short] === district)];
}

/** The data's name of the district `ref` names, among `districts` (the data's names), or undefined. */
export function districtNamed(districts: readonly string[], ref: string): string | undefined {
  const key = nameKey(ref);
  if (key === '') return undefined;
  return districts.find((district) => namesOf(district).some((name) => nameKey(name) === key));
}

/** The districts nearest to a name nobody knows, best first (at most 3; none when nothing is near). */
export function closestDistricts(districts: readonly string[], ref: string): string[] {
  return districts
    .flatMap((district) => {
      const match = bestMatch(ref, namesOf(district));
      return match ? [{ ...match, name: district }] : [];
    })
    .sort(byRelevance((e) => e.name))
    .slice(0, MAX_SUGGESTIONS)
    .map((e) => e.name);
}

/** The districts whose name takes an article in Portuguese ("distrito do Porto", "da Guarda"); the others take none. */
const DISTRICT_ARTICLES: Readonly<Record<string, string>> = { Porto: 'do', Guarda: 'da' };

/** Whether the data's name is an autonomous region's, which is named in full ("Região Autónoma da Madeira"). */
export function isRegion(district: string): boolean {
  return /^regi[aã]o/i.test(district);
}

/** A district as a sentence names it: "distrito do Porto", "district of Porto"; a region as it is named. */
export function districtName(district: string, language: 'pt' | 'en'): string {
  if (isRegion(district)) return district;
  if (language === 'en') return `district of ${district}`;
  return `distrito ${DISTRICT_ARTICLES[district] ?? 'de'} ${district}`;
}
