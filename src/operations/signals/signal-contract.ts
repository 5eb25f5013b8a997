/**
 * The contract a signal is about, by its key (src/lib/provenance.ts lists the forms): `integrity:<type>:<source>:
 * <contract source id>`, `procurement:<type>:<source>:<record source id>` where the record is a contract
 * (`contract_awarded`, `direct_award_high_value`) or an amendment (`contract_amended`); calls for tenders,
 * indicators and imports name no contract. Served as a signal's `contract_id`, so that a reader (the explorer's
 * signal page, docs/explorer.md) goes from the signal to the contract, its parties and its flags.
 */
import type { ProcurementRecordRef } from '../../store/procurement-queries.js';
import type { Store } from '../../store/store.js';

const RECORD_OF_TYPE: Readonly<Record<string, ProcurementRecordRef['kind']>> = {
  contract_awarded: 'contract',
  direct_award_high_value: 'contract',
  contract_amended: 'amendment',
};

/** The record a signal's key names, when it is a contract or an amendment. */
export function signalRecordRef(key: string): ProcurementRecordRef | undefined {
  const [family, type, source, ...id] = key.split(':');
  const kind = family === 'integrity' ? 'contract' : family === 'procurement' ? RECORD_OF_TYPE[type] : undefined;
  // A source id may hold a colon: the rest of the key is the id.
  return kind && source && id.length > 0 ? { kind, source, sourceId: id.join(':') } : undefined;
}

/** The id of the contract a signal is about; null when it names none or the store no longer holds it. */
export async function signalContractId(store: Store, key: string): Promise<number | null> {
  const record = signalRecordRef(key);
  return (record && (await store.contractIdOfRecord(record))) ?? null;
}
