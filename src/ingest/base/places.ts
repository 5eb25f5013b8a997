/**
 * `localExecucao` → municipalities. BASE writes `Portugal`, `Portugal, <Distrito|Região Autónoma>` or
 * `Portugal, <Distrito>, <Concelho>`, sometimes unaccented or abbreviated ("Braganca", "Vila Real Sto
 * Antonio", "Fig. Castelo Rodrigo"). We look the pair up in our alias table (data/base-place-aliases.csv:
 * `district_text,municipality_text,code`, the spellings BASE used in 2024), then fall back to the municipality's
 * name, compared without accents, case, punctuation and the little words (de, da, do…), within the district;
 * and when the district itself is not understood ("Distrito não determinado"), across the country when the
 * name is unique.
 *
 * A place is one of: national ("Portugal"), a district without a municipality, a municipality, or unresolved
 * (kept as text by the importer and counted in its report).
 */
import { readFileSync } from 'node:fs';
import { fold } from '../../lib/text-match.js';
import type { MunicipalityRecord } from '../../store/records.js';
import { parseCsv } from '../csv.js';
import { dataFile } from '../data-files.js';

export type Place =
  | { kind: 'national' }
  | { kind: 'district'; district: string }
  | { kind: 'municipality'; municipality: MunicipalityRecord }
  | { kind: 'unresolved' };

export interface PlaceAlias {
  district_text: string;
  municipality_text: string;
  code: string;
}

export function readPlaceAliases(path = dataFile('base-place-aliases.csv')): PlaceAlias[] {
  return parseCsv(readFileSync(path, 'utf8')).map((r) => ({
    district_text: r.district_text,
    municipality_text: r.municipality_text,
    code: r.code,
  }));
}

const LITTLE_WORDS = new Set(['de', 'da', 'do', 'das', 'dos', 'e', 'a', 'o']);
const ABBREVIATIONS: Record<string, string> = {
  sto: 'santo',
  sta: 'santa',
  s: 'sao',
  fig: 'figueira',
  n: 'nova',
  r: 'regiao',
  aut: 'autonoma',
};

/** The comparison key of a place name: folded, words only, abbreviations expanded, little words dropped. */
export function placeKey(name: string): string {
  return fold(name)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => ABBREVIATIONS[w] ?? w)
    .filter((w) => w && !LITTLE_WORDS.has(w))
    .join(' ');
}

/** District names as BASE may write them → our district names. */
const DISTRICT_SYNONYMS: Record<string, string> = {
  acores: 'Região Autónoma dos Açores',
  'regiao autonoma acores': 'Região Autónoma dos Açores',
  'ra acores': 'Região Autónoma dos Açores',
  madeira: 'Região Autónoma da Madeira',
  'regiao autonoma madeira': 'Região Autónoma da Madeira',
  'ra madeira': 'Região Autónoma da Madeira',
};

export type PlaceResolver = (placeText: string) => Place;

export function makePlaceResolver(
  municipalities: readonly MunicipalityRecord[],
  aliases: readonly PlaceAlias[] = readPlaceAliases(),
): PlaceResolver {
  const byCode = new Map(municipalities.map((m) => [m.code, m]));
  const aliasMap = new Map<string, MunicipalityRecord>();
  const districts = new Map<string, string>(); // district key → our district name
  for (const m of municipalities) districts.set(placeKey(m.district), m.district);
  for (const [key, name] of Object.entries(DISTRICT_SYNONYMS)) districts.set(key, name);
  for (const a of aliases) {
    const m = byCode.get(a.code);
    if (!m) continue; // an alias for a code we do not have: ignore rather than fail every import
    aliasMap.set(`${placeKey(a.district_text)}|${placeKey(a.municipality_text)}`, m);
    districts.set(placeKey(a.district_text), m.district);
  }
  const byDistrictAndName = new Map<string, MunicipalityRecord>();
  const byName = new Map<string, MunicipalityRecord[]>();
  for (const m of municipalities) {
    byDistrictAndName.set(`${m.district}|${placeKey(m.name)}`, m);
    byName.set(placeKey(m.name), [...(byName.get(placeKey(m.name)) ?? []), m]);
  }
  const cache = new Map<string, Place>();

  function resolve(placeText: string): Place {
    const parts = placeText
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    if (parts.length > 0 && placeKey(parts[0]) === 'portugal') parts.shift();
    else if (parts.length === 0 || !districts.has(placeKey(parts[0]))) {
      return { kind: 'unresolved' }; // abroad, or not a place
    }
    if (parts.length === 0) return { kind: 'national' };
    const districtText = parts[0];
    const municipalityText = parts.slice(1).join(', ');
    const district = districts.get(placeKey(districtText));
    if (!municipalityText) return district ? { kind: 'district', district } : { kind: 'unresolved' };
    const alias = aliasMap.get(`${placeKey(districtText)}|${placeKey(municipalityText)}`);
    if (alias) return { kind: 'municipality', municipality: alias };
    if (district) {
      const m = byDistrictAndName.get(`${district}|${placeKey(municipalityText)}`);
      return m ? { kind: 'municipality', municipality: m } : { kind: 'unresolved' };
    }
    const candidates = byName.get(placeKey(municipalityText)) ?? [];
    return candidates.length === 1 ? { kind: 'municipality', municipality: candidates[0] } : { kind: 'unresolved' };
  }

  return (placeText) => {
    let place = cache.get(placeText);
    if (!place) {
      place = resolve(placeText);
      cache.set(placeText, place);
    }
    return place;
  };
}
