/** What an amendment write stores, the same in every store: the columns and their values. */
import type { AmendmentInput } from '../procurement-records.js';

/** The stored row of an amendment of the contract `contractId`; an unknown date is '' (it orders the list). */
export function amendmentRow(input: AmendmentInput, contractId: number, fingerprint: string) {
  return {
    source: input.source,
    source_id: input.source_id,
    contract_id: contractId,
    fingerprint,
    date: input.date ?? '',
    previous_price_eur: input.previous_price_eur ?? null,
    new_price_eur: input.new_price_eur ?? null,
    reason: input.reason ?? null,
    link: input.link ?? null,
    imported_at: input.imported_at,
  };
}
