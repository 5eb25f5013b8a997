/**
 * A contract as OCDS 1.1 releases (the mapping table is in docs/ocds.md):
 *
 * - one release for the contract as published (`tag: ['award', 'contract']`, dated by its publication): the
 *   tender section (procedure, base price, CPV items, tenderers, and — when the contract names its announcement
 *   and the store has it — the tender period and notice), one award, one contract, the parties and the buyer;
 * - one release per amendment (`tag: ['contractAmendment']`, dated by the amendment), with the contract's new
 *   value and the amendment, whose `amendsReleaseID` / `releaseID` are the releases before and after it.
 *
 * A field the source has nothing for is left out (OCDS has no use for null here), never guessed.
 */

import type { Json } from '../../../lib/json.js';
import { taxNumberKind } from '../../../lib/nif.js';
import { isDemoProcurementSource } from '../../../lib/provenance.js';
import { fold } from '../../../lib/text-match.js';
import type {
  AmendmentRecord,
  AnnouncementRecord,
  ContractRecord,
  CpvRef,
  PartyRecord,
} from '../../../store/procurement-records.js';
import { ocidOf } from './ocid.js';

export const CURRENCY = 'EUR';
/** The language of the free text (objects, names, reasons): the portal publishes in Portuguese. */
export const LANGUAGE = 'pt';

/** A calendar day as an OCDS date-time: the day at 00:00:00Z (the sources give no time of day). */
export function dayInstant(day: string | null): string | undefined {
  return day === null || day === '' ? undefined : `${day}T00:00:00Z`;
}

/** Release ids are unique within an ocid and may not contain `#`. */
function releaseIdPart(id: string): string {
  return id.replaceAll('#', '%23');
}

export function contractReleaseId(c: ContractRecord): string {
  return `contract-${releaseIdPart(c.source_id)}`;
}

export function amendmentReleaseId(a: AmendmentRecord): string {
  return `amendment-${releaseIdPart(a.source_id)}`;
}

export function awardId(c: ContractRecord): string {
  return `award-${c.source_id}`;
}

/** Drops undefined members and empty arrays and objects: absent data is absent, not null or `[]`. */
export function compact<T extends Json>(object: T): T {
  const out: Json = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    out[key] = value;
  }
  return out as T;
}

function value(amount: number | null): Json | undefined {
  return amount === null ? undefined : { amount, currency: CURRENCY };
}

// ---------------------------------------------------------------------------------------------------------
// Parties
// ---------------------------------------------------------------------------------------------------------

type Role = 'buyer' | 'supplier' | 'tenderer';

/**
 * The party's id in `parties` and its identifier, from its tax number (or, without one, its name). A placeholder
 * (`000000000`: src/lib/nif.ts) identifies no one and is no entry of the PT-NIF register: its party is named.
 */
export function partyIdentity(p: PartyRecord): { id: string; identifier?: Json } {
  const nif = p.nif?.trim() ?? '';
  const kind = nif === '' ? null : taxNumberKind(nif);
  if (kind === 'portuguese') return { id: `PT-NIF-${nif}`, identifier: { scheme: 'PT-NIF', id: nif } };
  if (kind === 'foreign') return { id: `TAXID-${nif}`, identifier: { id: nif } };
  const slug = fold(p.name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return { id: `NAME-${slug || 'unnamed'}` };
}

function reference(p: PartyRecord): Json {
  return { id: partyIdentity(p).id, name: p.name };
}

/** The parties of a contract, each once, with every role it has on the contract (buyer, supplier, tenderer). */
function parties(c: ContractRecord): Json[] {
  const byId = new Map<string, { party: Json; roles: Role[] }>();
  const add = (p: PartyRecord, role: Role) => {
    const { id, identifier } = partyIdentity(p);
    let entry = byId.get(id);
    if (!entry) {
      entry = { party: compact({ id, name: p.name, identifier }), roles: [] };
      byId.set(id, entry);
    }
    if (!entry.roles.includes(role)) entry.roles.push(role);
  };
  for (const p of c.buyers) add(p, 'buyer');
  for (const p of c.suppliers) add(p, 'supplier');
  for (const p of c.competitors) add(p, 'tenderer');
  return [...byId.values()].map(({ party, roles }) => ({ ...party, roles }));
}

function uniqueReferences(list: readonly PartyRecord[]): Json[] {
  const seen = new Set<string>();
  return list.map(reference).filter((r) => {
    if (seen.has(r.id as string)) return false;
    seen.add(r.id as string);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------------------
// Tender, award, contract
// ---------------------------------------------------------------------------------------------------------

/** OCDS procurement category of a Portuguese contract type label; undefined for concessions, companies, others. */
export function procurementCategory(contractType: string): 'works' | 'goods' | 'services' | undefined {
  const t = fold(contractType);
  if (t.startsWith('empreitada')) return 'works';
  if (t.startsWith('aquisicao de bens') || t.startsWith('locacao de bens')) return 'goods';
  if (t.startsWith('aquisicao de servicos')) return 'services';
  return undefined;
}

function classification(cpv: CpvRef): Json {
  return compact({ scheme: 'CPV', id: cpv.code, description: cpv.label_pt ?? undefined });
}

/** The contract's object as one item: the main CPV as its classification, the others as additional ones. */
function item(c: ContractRecord): Json | undefined {
  if (c.cpv.length === 0) return undefined;
  const [main, ...others] = c.cpv;
  return compact({
    id: c.source_id,
    description: c.object,
    classification: classification(main),
    additionalClassifications: others.map(classification),
  });
}

function tender(c: ContractRecord, announcement: AnnouncementRecord | undefined): Json {
  const categories = [...new Set(c.contract_types.map(procurementCategory).filter((x) => x !== undefined))];
  const [main, ...additional] = categories;
  const contractItem = item(c);
  const notice =
    announcement !== undefined
      ? compact({
          id: announcement.source_id,
          documentType: 'tenderNotice',
          url: announcement.link ?? undefined,
          datePublished: dayInstant(announcement.published_on),
        })
      : c.announcement_number !== null
        ? { id: c.announcement_number, documentType: 'tenderNotice' }
        : undefined;
  return compact({
    id: c.procedure_id ?? c.source_id,
    title: c.object,
    procurementMethod: c.ocds_method ?? undefined,
    procurementMethodDetails: c.procedure_type ?? undefined,
    procurementMethodRationale: c.legal_basis ?? undefined,
    mainProcurementCategory: main,
    additionalProcurementCategories: additional,
    value: value(c.base_price_eur ?? announcement?.base_price_eur ?? null),
    items: contractItem ? [contractItem] : [],
    tenderers: uniqueReferences(c.competitors),
    tenderPeriod:
      announcement === undefined
        ? undefined
        : compact({ startDate: dayInstant(announcement.published_on), endDate: dayInstant(announcement.deadline_on) }),
    documents: notice ? [notice] : [],
  });
}

function award(c: ContractRecord): Json {
  const contractItem = item(c);
  return compact({
    id: awardId(c),
    title: c.object,
    date: dayInstant(c.awarded_on),
    value: value(c.price_eur),
    suppliers: uniqueReferences(c.suppliers),
    items: contractItem ? [contractItem] : [],
  });
}

function contract(c: ContractRecord): Json {
  return compact({
    id: c.source_id,
    awardID: awardId(c),
    title: c.object,
    description: c.description ?? undefined,
    value: value(c.price_eur),
    dateSigned: dayInstant(c.signed_on),
    period: compact({
      startDate: dayInstant(c.signed_on),
      endDate: dayInstant(c.closed_on),
      durationInDays: c.execution_days ?? undefined,
    }),
    documents: c.link === null ? [] : [{ id: 'source-record', documentType: 'contractNotice', url: c.link }],
  });
}

// ---------------------------------------------------------------------------------------------------------
// Releases
// ---------------------------------------------------------------------------------------------------------

function euros(amount: number): string {
  return `${amount.toFixed(2)} ${CURRENCY}`;
}

/** The contract as published, then one release per amendment (`amendments`: this contract's, oldest first). */
export function contractReleases(
  c: ContractRecord,
  amendments: readonly AmendmentRecord[],
  announcement: AnnouncementRecord | undefined,
): Json[] {
  const ocid = ocidOf(c);
  const buyer = c.buyers[0];
  // The synthetic extension (synthetic-extension.ts): every release says whether it is demo data.
  const synthetic = isDemoProcurementSource(c.source);
  const base = compact({
    ocid,
    id: contractReleaseId(c),
    // When the source published it; without a publication date, when this service recorded it.
    date: dayInstant(c.published_on) ?? c.imported_at,
    tag: ['award', 'contract'],
    initiationType: 'tender',
    language: LANGUAGE,
    parties: parties(c),
    buyer: buyer === undefined ? undefined : reference(buyer),
    tender: tender(c, announcement),
    awards: [award(c)],
    contracts: [contract(c)],
    relatedProcesses:
      c.framework_agreement === null
        ? []
        : [{ id: 'framework', relationship: ['framework'], title: c.framework_agreement }],
    synthetic,
  });
  const releases: Json[] = [base];
  let before = base.id as string;
  for (const a of amendments) {
    const id = amendmentReleaseId(a);
    const change =
      a.previous_price_eur !== null && a.new_price_eur !== null
        ? `Valor do contrato alterado de ${euros(a.previous_price_eur)} para ${euros(a.new_price_eur)}.`
        : undefined;
    releases.push(
      compact({
        ocid,
        id,
        date: dayInstant(a.date) ?? a.imported_at,
        tag: ['contractAmendment'],
        initiationType: 'tender',
        language: LANGUAGE,
        contracts: [
          compact({
            id: c.source_id,
            awardID: awardId(c),
            value: value(a.new_price_eur),
            documents: a.link === null ? [] : [{ id: id, url: a.link }],
            amendments: [
              compact({
                id: a.source_id,
                date: dayInstant(a.date),
                rationale: a.reason ?? undefined,
                description: change,
                amendsReleaseID: before,
                releaseID: id,
              }),
            ],
          }),
        ],
        synthetic,
      }),
    );
    before = id;
  }
  return releases;
}

/** Releases in date order (the order a record lists them and merges them in); ties keep their given order. */
export function byDate(releases: readonly Json[]): Json[] {
  return releases
    .map((release, i) => ({ release, i }))
    .sort((a, b) => {
      const da = a.release.date as string;
      const db = b.release.date as string;
      return da < db ? -1 : da > db ? 1 : a.i - b.i;
    })
    .map(({ release }) => release);
}
