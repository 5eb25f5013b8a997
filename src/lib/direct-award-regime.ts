/**
 * The legal regime a direct award (ajuste direto) or a prior consultation (consulta prévia) falls under, and its
 * ceilings (docs/signals.md, "Direct-award ceilings by legal regime"). Read by the direct-award detector and by the
 * integrity checks (repeated direct awards, possible splitting): it sits here, on the ground floor, so that both
 * read the one copy of the figures. Portugal has three: the national Code (CCP) on the mainland, the Azores' own regime
 * (DLR 27/2015/A, the RJCPRAA) and Madeira's adaptation of the CCP (DLR 34/2008/M, values × 1.35 since DLR
 * 6/2018/M). The regime is read first from the contract's legal basis (`fundamentacao`: a regional decree names
 * its region), then from the buyer's region (a municipal buyer's own municipality, else the execution places when
 * they all lie in one region). When neither ties the buyer to a region, the general law (the CCP) is presumed; when
 * its places lie in more than one, the contract is judged against the highest ceiling of the three. Either way a
 * signal carries the `regime` penalty and says so: a ceiling the record does not attribute is not a finding.
 */
import { citedArticle } from './legal-basis.js';
import { regionOfLegalText } from './regional-law.js';
import type { RegionTold } from './regions.js';
import { fold } from './text-match.js';
import { memoByText } from './text-memo.js';

export type Regime = 'national' | 'azores' | 'madeira';

/** Euros (without VAT) for goods and services (CCP art. 20.º n.º 1) and for public works (art. 19.º). */
export interface KindCeilings {
  goods_services: number;
  works: number;
}

/** `goods_services` and `works`: up to where an ajuste direto in the general regime is allowed. */
export interface RegimeCeilings extends KindCeilings {
  /**
   * The consulta prévia's (CCP art. 20.º n.º 1 c), art. 19.º c)), or null where we know of none: the Azores' DLR
   * 27/2015/A — whose art. 20.º b) rows in the real data are public tenders, and under which no consulta prévia is
   * cited there; the decree's text on it is unconfirmed (docs/signals.md).
   */
  prior_consultation: KindCeilings | null;
  /** The law, as docs/signals.md cites it. */
  law_pt: string;
  law_en: string;
}

export const DIRECT_AWARD_CEILINGS: Readonly<Record<Regime, RegimeCeilings>> = {
  national: {
    goods_services: 20_000,
    works: 30_000,
    prior_consultation: { goods_services: 75_000, works: 150_000 },
    law_pt: 'regime geral do Código dos Contratos Públicos (art.os 19.º e 20.º)',
    law_en: 'general regime of the Public Contracts Code (CCP, art. 19 and 20)',
  },
  azores: {
    goods_services: 75_000,
    works: 150_000,
    prior_consultation: null,
    law_pt: 'regime da Região Autónoma dos Açores (DLR n.º 27/2015/A, art.os 19.º e 20.º)',
    law_en: 'Azores regional regime (DLR 27/2015/A, art. 19 and 20)',
  },
  madeira: {
    goods_services: 27_000,
    works: 40_500,
    prior_consultation: { goods_services: 101_250, works: 202_500 },
    law_pt: 'regime da Região Autónoma da Madeira (DLR n.º 34/2008/M, valores do CCP × 1,35)',
    law_en: 'Madeira regional regime (DLR 34/2008/M, CCP values × 1.35)',
  },
};

/**
 * How the regime was told: by the legal basis, by the buyer's region, presumed (the general law: nothing in the
 * record ties the buyer to a region), or not at all (its places lie in more than one region).
 */
export interface RegimeReading {
  regime: Regime | null;
  told_by: 'legal_basis' | 'region' | 'presumed' | null;
}

const AZORES = 'Região Autónoma dos Açores';
const MADEIRA = 'Região Autónoma da Madeira';

/** The regime of a municipality's contracting authorities (its district, or autonomous region). */
export function regimeOfMunicipality(m: { district: string }): Regime {
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
 * The legal basis first, then the buyer's region (lib/regions.ts). When neither ties the buyer to a region, the
 * general law — the CCP, which the regional regimes adapt for the regions' own authorities — is presumed, and a
 * signal resting on it says so at a lower confidence; places in more than one region leave it untold.
 * @param buyerRegion what the record tells of the buyer's region (Regions.regionOf)
 */
export function readRegime(legalBasis: string | null, buyerRegion: RegionTold): RegimeReading {
  const named = regimeOfLegalBasis(legalBasis);
  if (named) return { regime: named, told_by: 'legal_basis' };
  if (buyerRegion === 'several') return { regime: null, told_by: null };
  if (buyerRegion) return { regime: buyerRegion, told_by: 'region' };
  return { regime: 'national', told_by: 'presumed' };
}

const PRESUMED = {
  pt: ', presumido (nada no registo liga a entidade aos Açores ou à Madeira)',
  en: ', presumed (nothing in the record ties the buyer to the Azores or Madeira)',
} as const;

/** The law of a regime read, in words, saying when it is presumed; null when the regime cannot be told. */
export function regimeLaw(reading: RegimeReading): { pt: string; en: string } | null {
  if (reading.regime === null) return null;
  const { law_pt, law_en } = DIRECT_AWARD_CEILINGS[reading.regime];
  const presumed = reading.told_by === 'presumed';
  return { pt: `${law_pt}${presumed ? PRESUMED.pt : ''}`, en: `${law_en}${presumed ? PRESUMED.en : ''}` };
}

/** Whether the record itself tells the regime (its legal basis or its buyer's region), not a presumption. */
export const regimeTold = (reading: RegimeReading): boolean =>
  reading.told_by === 'legal_basis' || reading.told_by === 'region';

/** The ajuste direto's ceiling a contract is held to: its regime's, or (regime unknown) the highest of all. */
export function ceilingFor(reading: RegimeReading, works: boolean): number {
  const pick = (r: RegimeCeilings) => (works ? r.works : r.goods_services);
  if (reading.regime) return pick(DIRECT_AWARD_CEILINGS[reading.regime]);
  return Math.max(...Object.values(DIRECT_AWARD_CEILINGS).map(pick));
}

/**
 * The consulta prévia's ceiling: its regime's, or (regime unknown) the highest of the regimes that have one; null
 * when the regime has none (the Azores).
 */
export function consultationCeilingFor(reading: RegimeReading, works: boolean): number | null {
  const pick = (r: RegimeCeilings) =>
    r.prior_consultation ? r.prior_consultation[works ? 'works' : 'goods_services'] : null;
  if (reading.regime) return pick(DIRECT_AWARD_CEILINGS[reading.regime]);
  return Math.max(...Object.values(DIRECT_AWARD_CEILINGS).flatMap((r) => pick(r) ?? []));
}

/**
 * A public-works contract, held to the works ceilings: its procedure chosen under art. 19.º (the procedures for
 * public works, in the CCP, in Madeira's adaptation and in the Azores' decree alike) — the article the buyer cites
 * decides which ceiling it chose under, whatever the contract type says ("Concessão de obras públicas" under art.
 * 19.º d)); under art. 20.º (goods and services) it is not; under no such article, a contract type "Empreitada…".
 */
export function isWorks(c: { contract_types: readonly string[]; legal_basis: string | null }): boolean {
  const cited = c.legal_basis === null ? null : citedArticle(c.legal_basis);
  if (cited?.alinea !== undefined && (cited.article === 19 || cited.article === 20)) return cited.article === 19;
  return c.contract_types.some((t) => /^empreitada/i.test(t.trim()));
}

interface Procedure {
  ocds_method: string | null;
  procedure_type: string | null;
}

/**
 * An ajuste direto: OCDS method `direct` and a procedure type "Ajuste direto…" (the other direct methods, call-offs
 * of single-supplier frameworks and excluded contracting, have no such ceiling).
 */
export function isAjusteDireto(c: Procedure): boolean {
  return (
    c.ocds_method === 'direct' && c.procedure_type !== null && procedureNamed(c.procedure_type) === 'ajuste_direto'
  );
}

/** A consulta prévia: OCDS method `limited` and a procedure type "Consulta prévia…". */
export function isConsultaPrevia(c: Procedure): boolean {
  return (
    c.ocds_method === 'limited' && c.procedure_type !== null && procedureNamed(c.procedure_type) === 'consulta_previa'
  );
}

/** The direct procedure a procedure type names, read once per text (lib/text-memo.ts). */
const procedureNamed = memoByText((procedureType): 'ajuste_direto' | 'consulta_previa' | null => {
  const folded = fold(procedureType).trim();
  if (/^ajuste direc?to\b/.test(folded)) return 'ajuste_direto';
  if (/^consulta previa\b/.test(folded)) return 'consulta_previa';
  return null;
});
