/**
 * The legal regime a direct award (ajuste direto) falls under, and its ceilings (docs/signals.md, "Direct-award
 * ceilings by legal regime"). Portugal has three: the national Code (CCP) on the mainland, the Azores' own regime
 * (DLR 27/2015/A, the RJCPRAA) and Madeira's adaptation of the CCP (DLR 34/2008/M, values × 1.35 since DLR
 * 6/2018/M). The regime is read first from the contract's legal basis (`fundamentacao`: a regional decree names
 * its region), then from the buyer's region (a municipal buyer's own municipality, else the execution places when
 * they all lie in one region). When neither tells it, the contract is judged against the highest ceiling of the
 * three and any signal carries the `regime` penalty: a ceiling we cannot attribute is not a finding.
 */
import { regionOfLegalText } from '../lib/regional-law.js';
import type { MunicipalityRecord } from '../store/records.js';

export type Regime = 'national' | 'azores' | 'madeira';

export interface RegimeCeilings {
  /** Euros (without VAT) up to which an ajuste direto in the general regime is allowed. */
  goods_services: number;
  works: number;
  /** The law, as docs/signals.md cites it. */
  law_pt: string;
  law_en: string;
}

export const DIRECT_AWARD_CEILINGS: Readonly<Record<Regime, RegimeCeilings>> = {
  national: {
    goods_services: 20_000,
    works: 30_000,
    law_pt: 'regime geral do Código dos Contratos Públicos (art.os 19.º e 20.º)',
    law_en: 'general regime of the Public Contracts Code (CCP, art. 19 and 20)',
  },
  azores: {
    goods_services: 75_000,
    works: 150_000,
    law_pt: 'regime da Região Autónoma dos Açores (DLR n.º 27/2015/A, art.os 19.º e 20.º)',
    law_en: 'Azores regional regime (DLR 27/2015/A, art. 19 and 20)',
  },
  madeira: {
    goods_services: 27_000,
    works: 40_500,
    law_pt: 'regime da Região Autónoma da Madeira (DLR n.º 34/2008/M, valores do CCP × 1,35)',
    law_en: 'Madeira regional regime (DLR 34/2008/M, CCP values × 1.35)',
  },
};

/** How the regime was told: by the legal basis, by the buyer's region, or not at all. */
export interface RegimeReading {
  regime: Regime | null;
  told_by: 'legal_basis' | 'region' | null;
}

const AZORES = 'Região Autónoma dos Açores';
const MADEIRA = 'Região Autónoma da Madeira';

/** The regime of a municipality's contracting authorities (its district, or autonomous region). */
export function regimeOfMunicipality(m: Pick<MunicipalityRecord, 'district'>): Regime {
  if (m.district === AZORES) return 'azores';
  if (m.district === MADEIRA) return 'madeira';
  return 'national';
}

/**
 * The regime a legal basis names: a regional act (legislative or regulatory) is numbered `N/YYYY/A` in the Azores
 * and `N/YYYY/M` in Madeira (lib/regional-law.ts). A basis citing only the CCP names no region: Madeira's adaptation
 * keeps the CCP's articles, and Azorean authorities cite them too.
 */
export function regimeOfLegalBasis(legalBasis: string | null): Regime | null {
  return regionOfLegalText(legalBasis);
}

/**
 * @param buyerRegion the regime of the buyer's region (see Places.regionOf), or null when unknown
 */
export function readRegime(legalBasis: string | null, buyerRegion: Regime | null): RegimeReading {
  const named = regimeOfLegalBasis(legalBasis);
  if (named) return { regime: named, told_by: 'legal_basis' };
  if (buyerRegion) return { regime: buyerRegion, told_by: 'region' };
  return { regime: null, told_by: null };
}

/** The ceiling a contract is held to: its regime's, or (regime unknown) the highest of all. */
export function ceilingFor(reading: RegimeReading, works: boolean): number {
  const pick = (r: RegimeCeilings) => (works ? r.works : r.goods_services);
  if (reading.regime) return pick(DIRECT_AWARD_CEILINGS[reading.regime]);
  return Math.max(...Object.values(DIRECT_AWARD_CEILINGS).map(pick));
}
