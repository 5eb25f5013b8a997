/** What detection asks of the store: the procurement and observation reads, the journal, signal and case writes. */
import type { Store } from '../store/store.js';

export type DetectionStore = Pick<
  Store,
  | 'readChanges'
  | 'lastChangeSeq'
  | 'getWatermark'
  | 'setWatermark'
  | 'writeSignals'
  | 'getSignalsByKeys'
  | 'listSignals'
  | 'pendingCases'
  | 'saveCases'
  | 'getAnnouncements'
  | 'getContracts'
  | 'getAmendments'
  | 'contractAmendments'
  | 'listAnnouncements'
  | 'listMunicipalities'
  | 'listIndicators'
  | 'indicatorPoints'
  // The integrity checks' reads (integrity/check.ts, corpus.ts) and what the integrity scope asks.
  | 'listContracts'
  | 'getContract'
  | 'noticePeriods'
  | 'procurementVersion'
  | 'supplierVarieties'
  | 'tendererBids'
  | 'buyerPrices'
  | 'contractBuyers'
  | 'contractIdsByParty'
  | 'noticeContracts'
  | 'procurementSources'
  | 'keptCorpusStatistic'
  | 'keepCorpusStatistic'
>;

/** Stored signals by key, fetched in slices so that a long key list never makes one huge query. */
export async function existingSignals(store: Pick<Store, 'getSignalsByKeys'>, keys: readonly string[]) {
  const found = new Map<string, Awaited<ReturnType<Store['getSignalsByKeys']>>[number]>();
  const unique = [...new Set(keys)];
  for (let i = 0; i < unique.length; i += 5000) {
    for (const s of await store.getSignalsByKeys(unique.slice(i, i + 5000))) found.set(s.key, s);
  }
  return found;
}
