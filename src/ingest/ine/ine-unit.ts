/**
 * The unit an INE indicator states in its title (`IndicadorDsg`: "Taxa bruta de natalidade (‰) por …"), and whether
 * it can be the unit of a catalogue indicator. A file whose unit contradicts the indicator it is imported into is
 * refused (docs/data.md, Importing INE data): the birth rate in ‰ is not a population in persons. A title that
 * states no unit we know is not refused on that ground.
 */
import type { Unit } from '../../lib/vocabulary.js';

/** INE's unit notations, folded (see `foldUnit`), and the catalogue units each may be. */
const INE_UNITS: Record<string, readonly Unit[]> = {
  '‰': ['per_1000'],
  '%': ['percent'],
  'n.º': ['persons', 'count', 'index', 'ratio'],
  '€': ['eur'],
  '€/m2': ['eur'],
  '€/hab.': ['eur_per_capita'],
  km2: ['km2'],
  'n.º/km2': ['ratio'],
  'hab./km2': ['ratio'],
  anos: ['years'],
  ano: ['years'],
};

/** The unit stated in a title: the first parenthesised group that is one of INE's unit notations. */
export function ineUnitOf(title: string): string | undefined {
  for (const match of title.matchAll(/\(([^()]{1,20})\)/g)) {
    const folded = foldUnit(match[1]);
    if (folded in INE_UNITS) return match[1].trim();
  }
  return undefined;
}

/** Whether an INE unit (as `ineUnitOf` gives it) can be the catalogue unit. */
export function unitFits(ineUnit: string, unit: Unit): boolean {
  return (INE_UNITS[foldUnit(ineUnit)] ?? []).includes(unit);
}

function foldUnit(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/\s+/g, '')
    .replace(/²/g, '2')
    .replace(/n[.]?[º°o]/, 'n.º')
    .replace(/^euros?$/, '€');
}
