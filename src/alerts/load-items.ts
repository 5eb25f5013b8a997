/**
 * Turns a batch of journal entries into items: one read per kind of record (and one for the contracts of the
 * amendments), then each record reduced to an AlertItem. Entries whose record has gone are dropped, and so are
 * signals that no longer stand as read now (withdrawn or expired: matchable.ts); `observation` entries are not items
 * (indicator rules match the signals detected on observations).
 */
import { demoTitle, isDemoProcurementSource } from '../lib/provenance.js';
import { fold } from '../lib/text-match.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord, PartyRecord } from '../store/procurement-records.js';
import type { MunicipalityRecord } from '../store/records.js';
import type { ChangeEntry, MatchableSignal } from '../store/signal-records.js';
import type { ProcurementReadStore, SignalWriteStore } from '../store/store.js';
import { announcementCase, contractCase } from './case-lookup.js';
import { type AlertItem, type ItemParty, itemKey, type PartyRole } from './item.js';
import { isMatchableSignal } from './matchable.js';

export type ItemStore = Pick<ProcurementReadStore, 'getContracts' | 'getAnnouncements' | 'getAmendments'> &
  Pick<SignalWriteStore, 'getMatchableSignals'>;

/** Municipalities by code (procurement records name them so) and by tax number (a buying municipality). */
export class Places {
  readonly #byCode: Map<string, number>;
  readonly #byNif: Map<string, number>;

  constructor(municipalities: readonly MunicipalityRecord[]) {
    this.#byCode = new Map(municipalities.map((m) => [m.code, m.id]));
    this.#byNif = new Map(municipalities.map((m) => [m.nif, m.id]));
  }

  /** The buying municipalities first, then the places of execution, each once. */
  of(buyers: readonly PartyRecord[], codes: readonly string[]): number[] {
    const ids = [
      ...buyers.map((b) => (b.nif === null ? undefined : this.#byNif.get(b.nif))),
      ...codes.map((c) => this.#byCode.get(c)),
    ].filter((id): id is number => id !== undefined);
    return [...new Set(ids)];
  }
}

export interface BatchItem {
  seq: number;
  item: AlertItem;
}

export async function loadItems(
  store: ItemStore,
  entries: readonly ChangeEntry[],
  places: Places,
): Promise<BatchItem[]> {
  const idsOf = (kind: ChangeEntry['kind']) => [...new Set(entries.filter((e) => e.kind === kind).map((e) => e.id))];
  const [signals, announcements, contracts, amendments] = await Promise.all([
    store.getMatchableSignals(idsOf('signal')),
    store.getAnnouncements(idsOf('announcement')),
    store.getContracts(idsOf('contract')),
    store.getAmendments(idsOf('amendment')),
  ]);
  const contractById = new Map(contracts.map((c) => [c.id, c]));
  const missingContracts = [...new Set(amendments.map((a) => a.contract_id).filter((id) => !contractById.has(id)))];
  for (const c of await store.getContracts(missingContracts)) contractById.set(c.id, c);

  const built = new Map<string, AlertItem>();
  for (const s of signals) if (isMatchableSignal(s)) built.set(`signal:${s.id}`, signalItem(s));
  for (const a of announcements) built.set(`announcement:${a.id}`, announcementItem(a, places));
  for (const c of contracts) built.set(`contract:${c.id}`, contractItem(c, places));
  for (const a of amendments) {
    const contract = contractById.get(a.contract_id);
    if (contract) built.set(`amendment:${a.id}`, amendmentItem(a, contract, places));
  }

  const items: BatchItem[] = [];
  for (const entry of entries) {
    const found = built.get(`${entry.kind}:${entry.id}`);
    if (found) items.push({ seq: entry.seq, item: found });
  }
  return items;
}

function parties(records: readonly PartyRecord[], role: PartyRole): ItemParty[] {
  return records.filter((p) => p.nif !== null).map((p) => ({ nif: p.nif as string, name: p.name, role }));
}

function joinText(...parts: (string | null | undefined)[]): string {
  return parts.filter(Boolean).join('\n');
}

/**
 * A signal's summary, and its place after a dash only where the summary does not name it already (every detector's
 * summary does; an imported signal's may not). A keyword rule finds the place either way; the snippet, which
 * flattens the text to one line, then neither repeats the place ("…em Almada. Almada") nor glues it to the last
 * sentence ("…(2024). Corvo") (docs/alerts.md, "Matchers and their score").
 */
export function signalBody(summary: string | null, place: string | null): string {
  if (!place) return summary ?? '';
  if (!summary) return place;
  return fold(summary).includes(fold(place)) ? summary : `${summary} — ${place}`;
}

function signalItem(s: MatchableSignal): AlertItem {
  return {
    key: itemKey('signal', s.id),
    source_type: 'signal',
    municipality_ids: s.municipality_id === null ? [] : [s.municipality_id],
    district: null,
    title: s.title_pt,
    headline: s.title_pt ?? '',
    body: signalBody(s.summary_pt, s.location_text),
    cpvs: s.subject.cpv.map((code) => ({ code, label_pt: null })),
    parties: s.subject.nifs.map((nif) => ({ nif, name: null, role: 'party' })),
    link: s.evidence.find((e) => e.source_url)?.source_url ?? null,
    deadline: s.deadline_date,
    case_id: s.case_id,
    case_key: null,
    signal: s,
  };
}

/**
 * A match's title, marked `[demo]` for a generated record as the titles of signals from demo data are
 * (docs/data.md): a match on a generated notice under a real council's name must not read as real.
 */
function markedTitle(source: string, title: string): string {
  return isDemoProcurementSource(source) ? demoTitle(title) : title;
}

function announcementItem(a: AnnouncementRecord, places: Places): AlertItem {
  return {
    key: itemKey('procurement_announcement', a.id),
    source_type: 'procurement_announcement',
    municipality_ids: places.of([a.buyer], a.municipalities),
    district: a.district,
    title: markedTitle(a.source, a.object),
    headline: a.object,
    body: '',
    cpvs: a.cpv,
    parties: parties([a.buyer], 'buyer'),
    link: a.link,
    deadline: a.deadline_on,
    case_id: null,
    case_key: announcementCase(a),
    signal: null,
  };
}

function contractItem(c: ContractRecord, places: Places): AlertItem {
  return {
    key: itemKey('procurement_contract', c.id),
    source_type: 'procurement_contract',
    municipality_ids: places.of(c.buyers, c.municipalities),
    district: null,
    title: markedTitle(c.source, c.object),
    headline: c.object,
    body: c.description ?? '',
    cpvs: c.cpv,
    parties: [...parties(c.buyers, 'buyer'), ...parties(c.suppliers, 'supplier')],
    link: c.link,
    deadline: null,
    case_id: null,
    case_key: contractCase(c),
    signal: null,
  };
}

function amendmentItem(a: AmendmentRecord, c: ContractRecord, places: Places): AlertItem {
  return {
    key: itemKey('procurement_amendment', a.id),
    source_type: 'procurement_amendment',
    municipality_ids: places.of(c.buyers, c.municipalities),
    district: null,
    title: markedTitle(c.source, `Modificação do contrato: ${c.object}`),
    headline: c.object,
    body: joinText(a.reason, c.description),
    cpvs: c.cpv,
    parties: [...parties(c.buyers, 'buyer'), ...parties(c.suppliers, 'supplier')],
    link: a.link ?? c.link,
    deadline: null,
    case_id: null,
    case_key: contractCase(c),
    signal: null,
  };
}
