/**
 * The signals of a set of procurement records, ready to write: loads the records (and, for amendments, their
 * contracts and the contracts' other amendments), derives each record's candidate signals, and looks up the
 * stored ones to withdraw what no record derives any more.
 */
import type { AmendmentRecord, AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import type { SignalInput } from '../store/signal-records.js';
import { amendmentCandidates, changesPrice } from './amendment-signals.js';
import { contractCandidates, contractSignalTypes } from './contract-signals.js';
import { type Candidate, type DetectionContext, settle } from './detection-context.js';
import { type DetectionStore, existingSignals } from './detection-store.js';
import { contractCaseKey } from './procedure-case.js';
import { announcementCandidates, announcementKeys } from './tender-signals.js';

export interface RecordIds {
  announcements: Iterable<number>;
  contracts: Iterable<number>;
  amendments: Iterable<number>;
}

export async function procurementSignals(
  store: DetectionStore,
  ctx: DetectionContext,
  ids: RecordIds,
): Promise<SignalInput[]> {
  const announcements = await store.getAnnouncements([...new Set(ids.announcements)]);
  const contracts = await store.getContracts([...new Set(ids.contracts)]);
  const amendments = await store.getAmendments([...new Set(ids.amendments)]);
  // An amendment's signal depends on its contract (closed or not, signalled or not): a changed contract derives
  // its amendments' signals again, though no amendment changed.
  const loaded = new Set(amendments.map((m) => m.id));
  for (const m of await store.contractAmendments(contracts.map((c) => c.id))) {
    if (!loaded.has(m.id)) amendments.push(m);
  }
  return signalsOf(store, ctx, { announcements, contracts, amendments });
}

export async function signalsOf(
  store: DetectionStore,
  ctx: DetectionContext,
  records: {
    announcements: readonly AnnouncementRecord[];
    contracts: readonly ContractRecord[];
    amendments: readonly AmendmentRecord[];
  },
): Promise<SignalInput[]> {
  const candidates: Candidate[] = [];
  for (const c of records.contracts) candidates.push(...contractCandidates(c, ctx));
  if (records.amendments.length > 0)
    candidates.push(...(await amendmentSignalCandidates(store, ctx, records.amendments, records.contracts)));
  // A notice's deadline_closing depends on whether it exists already: derive those last, with the lookup.
  const existing = await existingSignals(store, [
    ...candidates.map((c) => c.key),
    ...records.announcements.flatMap(announcementKeys),
  ]);
  for (const a of records.announcements) candidates.push(...announcementCandidates(a, ctx, (key) => existing.has(key)));
  return settle(candidates, existing);
}

async function amendmentSignalCandidates(
  store: DetectionStore,
  ctx: DetectionContext,
  amendments: readonly AmendmentRecord[],
  loaded: readonly ContractRecord[],
): Promise<Candidate[]> {
  const contracts = new Map(loaded.map((c) => [c.id, c]));
  const missing = [...new Set(amendments.map((m) => m.contract_id).filter((id) => !contracts.has(id)))];
  for (const c of await store.getContracts(missing)) contracts.set(c.id, c);
  const types = new Map([...contracts.values()].map((c) => [c.id, contractSignalTypes(c, ctx)]));
  // Where neither a notice nor the contract opens the case, its first price-changing amendment does.
  const amended = new Set(amendments.map((m) => m.contract_id));
  const openedByAmendment = [...contracts.values()].filter(
    (c) => amended.has(c.id) && !contractCaseKey(c).announced && (types.get(c.id) ?? []).length === 0,
  );
  const first = new Map<number, number>();
  for (const m of await store.contractAmendments(openedByAmendment.map((c) => c.id))) {
    if (!first.has(m.contract_id) && changesPrice(m)) first.set(m.contract_id, m.id);
  }
  const out: Candidate[] = [];
  for (const m of amendments) {
    const c = contracts.get(m.contract_id);
    if (c) out.push(...amendmentCandidates(m, c, ctx, types.get(c.id) ?? [], first.get(c.id)));
  }
  return out;
}
