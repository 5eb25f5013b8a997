/**
 * One BASE contract record → ContractInput. The full record has 39 fields (base-field-reference.json); the
 * flattened xlsx export has 15 and the simplified CSV of course material 11 (with the buyer as
 * `NIPC_entidade_comunicante` + `entidade_comunicante`). Only `idcontrato` is required; every other field may be
 * absent (→ null or []), but a field that is present must be well formed, or the row is rejected.
 */
import { regionOfLegalText } from '../../lib/regional-law.js';
import type { ContractInput } from '../../store/procurement-records.js';
import { distinctParties, type RowContext, resolvePlaces, toParty } from './context.js';
import { looksLikeCpv, parseCpv } from './cpv.js';
import { type ParsedParty, parseParty, partyFromParts } from './parties.js';
import { ocdsMethod } from './procedure.js';
import type { RowReader } from './row.js';
import { date, euros, FieldError, items, longText, shown, text, wholeNumber, yesNo } from './values.js';

export const CONTRACT_ID_FIELD = 'idcontrato';

export function contractLink(id: string): string {
  return `https://www.base.gov.pt/Base4/pt/detalhe/?type=contratos&id=${encodeURIComponent(id)}`;
}

/** A portal id: digits (a JSON number, or a spreadsheet's `10431400.0`, is accepted as its digits). */
export function portalId(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new FieldError(`${shown(value)} is not an id`);
    return String(value);
  }
  const t = text(value);
  if (t === null) return null;
  const m = /^(\d+)(?:\.0+)?$/.exec(t);
  if (!m) throw new FieldError(`${shown(value)} is not an id`);
  return m[1];
}

/** An id kept as the source writes it, only without a spreadsheet's `.0`. */
export function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  const t = text(value);
  return t === null ? null : t.replace(/^(\d+)\.0+$/, '$1');
}

export function looksLikeParty(piece: string): boolean {
  return /^(\d{9}\s*-|-\s*-|RGPD\b|[A-Z]{2}[A-Z0-9]{4,}\s*-)/i.test(piece);
}

export interface ContractRow {
  input: ContractInput;
  /** Parties for the entity table, buyers and suppliers first. */
  parties: ParsedParty[];
  unresolvedPlaces: string[];
}

export function contractFromRow(row: RowReader, ctx: RowContext): ContractRow | null {
  const id = row.read(CONTRACT_ID_FIELD, portalId);
  if (id === null && !row.errors.some((e) => e.startsWith(`${CONTRACT_ID_FIELD}:`)))
    row.fail(`${CONTRACT_ID_FIELD} missing`);

  const object = row.read('objectoContrato', longText);
  const description = row.read('descContrato', longText);
  const procedureType = row.read('tipoprocedimento', text);
  const contractTypes = row.read('tipoContrato', (v) => items(v)) ?? [];
  const cpvs = unique(row.readEach('cpv', looksLikeCpv, parseCpv));

  const buyers = distinctParties(readBuyers(row));
  const suppliers = distinctParties(row.readEach('adjudicatarios', looksLikeParty, parseParty));
  const competitors = distinctParties(row.readEach('concorrentes', looksLikeParty, parseParty));

  const basePrice = row.read('precoBaseProcedimento', euros);
  const price = row.read('precoContratual', euros);
  const effective = row.read('PrecoTotalEfetivo', euros);
  const publishedOn = row.read('dataPublicacao', date);
  const awardedOn = row.read('dataDecisaoAdjudicacao', date);
  const signedOn = row.read('dataCelebracaoContrato', date);
  const closedOn = row.read('dataFechoContrato', date);
  const executionDays = row.read('prazoExecucao', wholeNumber);
  const placeTexts = row.read('localExecucao', (v) => items(v)) ?? [];
  const frameworkNumber = row.read('numAcordoQuadro', text);
  const frameworkText = row.read('DescrAcordoQuadro', text);
  const legalBasis = row.read('fundamentacao', text);
  const regime = row.read('regime', text);
  const green = row.read('ContratEcologico', yesNo);
  const centralized = row.read('ProcedimentoCentralizado', yesNo);
  const procedureId = row.read('idprocedimento', idText);
  const announcementNumber = row.read('nAnuncio', text);

  if (row.errors.length > 0 || id === null) return null;

  const places = resolvePlaces(placeTexts, ctx.resolvePlace);
  const input: ContractInput = {
    source: 'base',
    source_id: id,
    imported_at: ctx.importedAt,
    procedure_id: procedureId,
    announcement_number: announcementNumber,
    object: object ?? description ?? '',
    description,
    procedure_type: procedureType,
    ocds_method: ocdsMethod(procedureType),
    contract_types: unique(contractTypes),
    cpvs,
    buyers: buyers.map(toParty),
    suppliers: suppliers.map(toParty),
    competitors: competitors.map(toParty),
    base_price_eur: basePrice,
    price_eur: price,
    // The portal writes 0.0 until the execution report comes in: a 0 on an open contract is "not reported yet".
    effective_price_eur: effective === 0 && closedOn === null ? null : effective,
    published_on: publishedOn,
    awarded_on: awardedOn,
    signed_on: signedOn,
    closed_on: closedOn,
    execution_days: executionDays,
    execution_places_text: placeTexts.length > 0 ? placeTexts.join('; ') : null,
    municipality_ids: places.municipalityIds,
    framework_agreement:
      frameworkText && frameworkNumber ? `${frameworkText} (${frameworkNumber})` : (frameworkText ?? frameworkNumber),
    legal_basis: withRegionalRegime(legalBasis, regime),
    green,
    centralized,
    link: contractLink(id),
  };
  return { input, parties: [...buyers, ...suppliers, ...competitors], unresolvedPlaces: places.unresolved };
}

/**
 * The legal basis as the record gives it (`fundamentacao`), and its `regime` after it when the regime names an
 * autonomous region's act the basis does not: "Artigo 20.º, n.º 1, alínea d) do Código dos Contratos Públicos;
 * regime: Código dos Contratos Públicos (DL 111-B/2017 ) e DLR nº 34/2008/M, de 14.08" is a contract under
 * Madeira's regime, though its article is the CCP's (docs/signals.md, Direct-award ceilings by legal regime).
 * The national regimes ("Código dos Contratos Públicos (DL111-B/2017) e Lei n.º 30/2021…") add nothing the basis
 * does not say, and are left out.
 */
export function withRegionalRegime(legalBasis: string | null, regime: string | null): string | null {
  const region = regionOfLegalText(regime);
  if (region === null || regionOfLegalText(legalBasis) === region) return legalBasis;
  return legalBasis === null ? `regime: ${regime}` : `${legalBasis}; regime: ${regime}`;
}

/** `adjudicante` ("NIF - name" items), or the simplified CSV's tax number and name in two columns. */
function readBuyers(row: RowReader): ParsedParty[] {
  if (row.value('adjudicante') !== undefined) return row.readEach('adjudicante', looksLikeParty, parseParty);
  const nif = row.read('NIPC_entidade_comunicante', text);
  const name = row.read('entidade_comunicante', text);
  try {
    const party = partyFromParts(nif, name);
    return party ? [party] : [];
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    row.fail(`NIPC_entidade_comunicante: ${error.message}`);
    return [];
  }
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
