/**
 * OCDS 1.1 release and record packages around our releases: the package metadata (uri, version, publisher,
 * publishedDate) and the releases of a set of contracts, read with their amendments and announcements in a few
 * queries for the whole set.
 */

import type { Json } from '../../../lib/json.js';
import type { AmendmentRecord, AnnouncementRecord, ContractRecord } from '../../../store/procurement-records.js';
import type { Store } from '../../../store/store.js';
import { contractReleases } from './releases.js';
import { OCDS_VERSION } from './schemas.js';

export const PUBLISHER_NAME = 'munidata';

/** The OCDS pagination extension (adds `links.next` to packages), declared in `extensions` where we use it. */
export const PAGINATION_EXTENSION =
  'https://raw.githubusercontent.com/open-contracting-extensions/ocds_pagination_extension/master/extension.json';

/** A URL of this service: the path under the base URL with the query parameters, arrays repeated. */
export function serviceUrl(baseUrl: string, path: string, query: readonly (readonly [string, unknown])[] = []): string {
  const params = new URLSearchParams();
  for (const [name, value] of query) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(name, String(v));
  }
  const text = params.toString();
  return `${baseUrl}${path}${text === '' ? '' : `?${text}`}`;
}

/** Package metadata common to release and record packages. */
export function packageHead(uri: string, baseUrl: string, publishedDate: string, extensions?: string[]) {
  return {
    uri,
    version: OCDS_VERSION,
    ...(extensions === undefined ? {} : { extensions }),
    publishedDate,
    publisher: { name: PUBLISHER_NAME, uri: baseUrl },
  };
}

/**
 * The releases of these contracts (each contract's releases together, in contract order) and their newest import time.
 */
export async function releasesOf(
  store: Store,
  contracts: readonly ContractRecord[],
): Promise<{ releases: Json[]; importedAt: string | undefined }> {
  const ids = contracts.map((c) => c.id);
  const announcementIds = [
    ...new Set(contracts.flatMap((c) => (c.announcement_id === null ? [] : [c.announcement_id]))),
  ];
  const [amendments, announcements] = await Promise.all([
    store.contractAmendments(ids),
    store.getAnnouncements(announcementIds),
  ]);
  const amendmentsOf = new Map<number, AmendmentRecord[]>();
  for (const a of amendments) {
    const list = amendmentsOf.get(a.contract_id);
    if (list) list.push(a);
    else amendmentsOf.set(a.contract_id, [a]);
  }
  const announcementById = new Map<number, AnnouncementRecord>(announcements.map((a) => [a.id, a]));
  const releases: Json[] = [];
  for (const c of contracts) {
    const announcement = c.announcement_id === null ? undefined : announcementById.get(c.announcement_id);
    releases.push(...contractReleases(c, amendmentsOf.get(c.id) ?? [], announcement));
  }
  const times = [...contracts, ...amendments, ...announcements].map((r) => r.imported_at);
  const importedAt = times.length === 0 ? undefined : times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a));
  return { releases, importedAt };
}
