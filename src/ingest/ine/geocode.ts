/**
 * INE geocodes → our municipalities. The level follows from the length: "PT" country, 1 char NUTS I,
 * 2 chars NUTS II, 3 chars NUTS III, 7 chars municipality (NUTS III + DICO), 9 chars parish. The NUTS III part
 * differs between the NUTS-2013 and NUTS-2024 schemes (Lisboa 1701106 / 1A01106), the DICO does not, so a
 * municipality is found by its last 4 characters, which are our `code`.
 */
import type { MunicipalityRecord } from '../../store/records.js';

export type AggregateLevel = 'country' | 'nuts1' | 'nuts2' | 'nuts3' | 'parish';

export type Placement =
  | { kind: 'municipality'; municipality: MunicipalityRecord }
  | { kind: 'aggregate'; level: AggregateLevel }
  | { kind: 'unplaced'; reason: string };

export function geocodeLevel(geocod: string): AggregateLevel | 'municipality' | null {
  if (geocod === 'PT') return 'country';
  if (/^[1-3]$/.test(geocod)) return 'nuts1';
  if (/^[1-3][0-9A-Z]$/.test(geocod)) return 'nuts2';
  if (/^[1-3][0-9A-Z]{2}$/.test(geocod)) return 'nuts3';
  if (/^[1-3][0-9A-Z]{2}\d{4}$/.test(geocod)) return 'municipality';
  if (/^[1-3][0-9A-Z]{2}\d{6}$/.test(geocod)) return 'parish';
  return null;
}

/**
 * NUTS I the DICO belongs to: Madeira's DICOs are 31xx–32xx ("3"), the Azores' 41xx–49xx ("2"), the mainland's
 * 01xx–18xx ("1"). A 7-char code whose first character disagrees is not the municipality its tail suggests.
 */
function nuts1OfDico(dico: string): string {
  const district = Number(dico.slice(0, 2));
  return district >= 41 ? '2' : district >= 31 ? '3' : '1';
}

export function makeGeocodeResolver(municipalities: readonly MunicipalityRecord[]): (geocod: string) => Placement {
  const byCode = new Map(municipalities.map((m) => [m.code, m]));
  return (geocod) => {
    const level = geocodeLevel(geocod);
    if (level === null) return { kind: 'unplaced', reason: 'unrecognised geocode' };
    if (level !== 'municipality') return { kind: 'aggregate', level };
    const dico = geocod.slice(3);
    const municipality = byCode.get(dico);
    if (!municipality) return { kind: 'unplaced', reason: `unknown municipality code (DICO) ${dico}` };
    if (geocod[0] !== nuts1OfDico(dico)) {
      return { kind: 'unplaced', reason: `NUTS prefix ${geocod.slice(0, 3)} does not fit municipality ${dico}` };
    }
    return { kind: 'municipality', municipality };
  };
}
