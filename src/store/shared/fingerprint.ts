/**
 * Fingerprints of written records: a hash of every field that is stored, in a fixed order (never the order of
 * the producer's object keys), without `imported_at`. A record whose fingerprint is unchanged is not rewritten.
 */
import type { AmendmentInput, AnnouncementInput, ContractInput, Party } from '../procurement-records.js';

/**
 * A 64-bit hash (cyrb53's mixing, two 32-bit lanes) of the values as JSON. It only has to notice that a record
 * changed — nobody forges an import — and at a million contracts a crypto hash object per record costs more
 * than the rest of the fingerprint.
 */
export function hash(values: readonly unknown[]): string {
  const text = JSON.stringify(values);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (h2 >>> 0).toString(16).padStart(8, '0') + (h1 >>> 0).toString(16).padStart(8, '0');
}

const parties = (list: readonly Party[]) => list.map((p) => [p.nif, p.name]);

export function contractFingerprint(c: ContractInput): string {
  return hash([
    c.procedure_id,
    c.announcement_number,
    c.object,
    c.description,
    c.procedure_type,
    c.ocds_method,
    c.contract_types,
    c.cpvs,
    parties(c.buyers),
    parties(c.suppliers),
    parties(c.competitors),
    c.base_price_eur,
    c.price_eur,
    c.effective_price_eur,
    c.published_on,
    c.awarded_on,
    c.signed_on,
    c.closed_on,
    c.execution_days,
    c.execution_places_text,
    c.municipality_ids,
    c.framework_agreement,
    c.legal_basis,
    c.green,
    c.centralized,
    c.link,
  ]);
}

export function announcementFingerprint(a: AnnouncementInput): string {
  return hash([
    a.published_on,
    a.deadline_on,
    parties([a.buyer]),
    a.object,
    a.cpvs,
    a.base_price_eur,
    a.contract_types,
    a.procedure_type,
    a.municipality_ids,
    a.district,
    a.link,
  ]);
}

export function amendmentFingerprint(m: AmendmentInput): string {
  return hash([m.contract_source_id, m.date, m.previous_price_eur, m.new_price_eur, m.reason, m.link]);
}
