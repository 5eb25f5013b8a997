/**
 * Places and lists as the prompts' sentences name them. Portuguese joins a preposition to the article some names
 * take ("no distrito do Porto", "da Guarda", where Braga takes none); the autonomous regions are named in full
 * ("Região Autónoma da Madeira") and take the article of "região".
 */
import type { Language } from './prompt-definitions.js';

/** The districts whose name takes an article in Portuguese (every other district takes none). */
const DISTRICT_ARTICLES: Readonly<Record<string, string>> = { Porto: 'do', Guarda: 'da' };

function isRegion(district: string): boolean {
  return /^regi[aã]o/i.test(district);
}

/** "distrito do Porto", "district of Porto"; a region as it is named. */
export function districtName(district: string, language: Language): string {
  if (isRegion(district)) return district;
  if (language === 'en') return `district of ${district}`;
  return `distrito ${DISTRICT_ARTICLES[district] ?? 'de'} ${district}`;
}

/** "no distrito do Porto", "in the district of Porto", "na Região Autónoma dos Açores". */
export function inDistrict(district: string, language: Language): string {
  if (language === 'en') return `in the ${districtName(district, language)}`;
  return `${isRegion(district) ? 'na' : 'no'} ${districtName(district, language)}`;
}

/** "Lisboa, Porto and Braga", "Lisboa, Porto e Braga". */
export function listed(names: readonly string[], language: Language): string {
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')} ${language === 'en' ? 'and' : 'e'} ${names.at(-1)}`;
}
