/**
 * A stored party as records show it. The portal anonymises natural persons under the GDPR: it publishes them as
 * `"RGPD - <name>"` with no tax number, and the importer stores that text as published. Served, such a party is
 * `{ nif: null, name: <name>, withheld: true }` — a supplier whose identity the portal withheld, never a party
 * named "RGPD" (docs/data.md, Parties).
 */
import type { PartyRecord } from '../procurement-records.js';
import { textOrNull } from './row-values.js';

const WITHHELD = /^RGPD\b\s*(?:-\s*)?/i;

export function partyRecord(storedNif: unknown, storedName: unknown): PartyRecord {
  const nif = textOrNull(storedNif);
  const published = String(storedName);
  const withheld = nif === null && WITHHELD.test(published);
  if (!withheld) return { nif, name: published, withheld: false };
  const name = published.replace(WITHHELD, '').trim();
  return { nif: null, name: name === '' ? published : name, withheld: true };
}
