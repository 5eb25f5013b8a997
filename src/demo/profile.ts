/**
 * What the demo models know about a municipality: its size from the CSV, a coarse region, and three latent
 * traits (how old, how wealthy, how touristic) built from geography plus a seeded municipal quirk. Sharing the
 * traits across indicators keeps the synthetic data coherent: a wealthy place has high earnings, prices and
 * purchasing power together, an old interior place has few births and many deaths.
 */
import type { MunicipalityRecord } from '../store/records.js';
import { hashSeed, Rng } from './random.js';

export type Region =
  | 'lisboa_metro'
  | 'porto_metro'
  | 'norte'
  | 'centro'
  | 'oeste_tejo'
  | 'alentejo'
  | 'algarve'
  | 'azores'
  | 'madeira';

export interface Profile {
  id: number;
  pop: number;
  area: number;
  /** 0 for sparse rural land (≤ 20 inhabitants/km²) … 1 for a dense city (≥ ~3 000/km²). */
  urban: number;
  region: Region;
  metro: boolean;
  islands: boolean;
  /** Latent traits, roughly standard scores across the 308 municipalities. */
  age: number;
  wealth: number;
  tourism: number;
}

function regionOf(m: MunicipalityRecord): Region {
  if (m.nuts_iii === 'Área Metropolitana do Porto') return 'porto_metro';
  switch (m.nuts_ii) {
    case 'Grande Lisboa':
    case 'Península de Setúbal':
      return 'lisboa_metro';
    case 'Norte':
      return 'norte';
    case 'Centro':
      return 'centro';
    case 'Oeste e Vale do Tejo':
      return 'oeste_tejo';
    case 'Alentejo':
      return 'alentejo';
    case 'Algarve':
      return 'algarve';
    case 'Região Autónoma dos Açores':
      return 'azores';
    case 'Região Autónoma da Madeira':
      return 'madeira';
    default:
      return 'centro';
  }
}

export function profileOf(m: MunicipalityRecord, seed: number): Profile {
  const rng = new Rng(hashSeed(seed, 'profile', m.id));
  const region = regionOf(m);
  const density = m.population_2021 / Math.max(m.area_km2, 0.1);
  const urban = Math.min(1, Math.max(0, (Math.log10(density) - 1.3) / 2.2));
  const metro = region === 'lisboa_metro' || region === 'porto_metro';
  const is = (r: Region) => (region === r ? 1 : 0);
  const age =
    1.2 * (1 - urban) -
    0.5 * Number(metro) -
    0.9 * is('azores') -
    0.4 * is('madeira') +
    0.3 * (is('alentejo') + is('centro')) -
    0.2 +
    0.35 * rng.normal();
  const wealth =
    1.6 * urban + 0.6 * Number(metro) + 0.3 * (Math.log10(m.population_2021) - 4.3) - 1 + 0.35 * rng.normal();
  const tourism =
    2 * is('algarve') +
    1.4 * is('madeira') +
    0.6 * is('azores') +
    (metro && urban > 0.9 ? 1 : 0) -
    0.3 +
    0.5 * rng.normal();
  return {
    id: m.id,
    pop: m.population_2021,
    area: m.area_km2,
    urban,
    region,
    metro,
    islands: region === 'azores' || region === 'madeira',
    age,
    wealth,
    tourism,
  };
}
