/**
 * Places and lists as the prompts' sentences name them. Portuguese joins a preposition to the article some names
 * take ("no distrito do Porto", "da Guarda", where Braga takes none); the autonomous regions are named in full
 * ("Região Autónoma da Madeira") and take the article of "região".
 */
import { districtName, isRegion } from '../../../lib/district-names.js';
import type { Language } from './prompt-definitions.js';

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
