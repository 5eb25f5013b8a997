/**
 * `munidata sync base [--since DATE]`: the procurement portal's open-data files (Portal BASE, IMPIC, published on
 * dados.gov.pt as one file per year and dataset) fetched over HTTP and imported through the BASE importer — one
 * transaction per file, so a file that could not be fetched whole writes nothing, and upserts by portal id, so a
 * file fetched again changes only what changed. Incremental by year: the files of the years from `since` (default:
 * the current year, the one the portal still updates) on. Contracts first, then announcements and amendments
 * (an amendment needs its contract). A host that cannot be reached stops the sync. See docs/data.md, Syncing.
 */
import { isCalendarPeriod } from '../../lib/calendar.js';
import type { ProcurementWriteStore, ReferenceStore } from '../../store/store.js';
import { type BaseDataset, type BaseFormat, importBase } from '../base/import-base.js';
import { type FetchedFile, HostUnreachableError, type PoliteClient } from './polite-client.js';
import { isZip, theDataFileIn } from './zip.js';

/** dados.gov.pt's dataset API; `{base}/{slug}/` describes a dataset and lists its files (`resources`). */
export const DEFAULT_BASE_DATA_URL = 'https://dados.gov.pt/api/1/datasets';

/** The portal's three datasets on dados.gov.pt, in import order. */
export const BASE_DATASETS: readonly { dataset: BaseDataset; slug: string }[] = [
  { dataset: 'contracts', slug: 'contratos-publicos-portal-base-impic-contratos-de-2012-a-2026' },
  { dataset: 'announcements', slug: 'contratos-publicos-portal-base-impic-anuncios-de-2012-a-2026' },
  { dataset: 'amendments', slug: 'contratos-publicos-portal-base-impic-modificacoes-contratuais-de-2012-a-2026' },
];

export interface SyncBaseOptions {
  readonly client: PoliteClient;
  readonly baseUrl?: string;
  /** Files of the years from this date's year on (YYYY or YYYY-MM-DD); default the current year. */
  readonly since?: string;
  readonly now?: Date;
  readonly datasets?: readonly BaseDataset[];
  readonly log?: (line: string) => void;
}

export interface SyncFileReport {
  readonly dataset: BaseDataset;
  readonly year: number;
  readonly url: string;
  status: 'imported' | 'failed';
  bytes?: number;
  rows_read?: number;
  accepted?: number;
  rejected?: number;
  inserted?: number;
  updated?: number;
  unchanged?: number;
  error?: string;
}

export interface SyncBaseReport {
  readonly base_url: string;
  readonly since_year: number;
  readonly files: SyncFileReport[];
  readonly requests: number;
  readonly ok: boolean;
  /** Why the sync stopped before its last file (a host cannot be reached); null when it did not. */
  readonly stopped: string | null;
  /** The datasets it did not ask for, having stopped. */
  readonly not_tried: BaseDataset[];
}

interface Resource {
  readonly url: string;
  readonly title: string;
  readonly format: string;
  readonly year: number;
}

export async function syncBase(
  store: ProcurementWriteStore & Pick<ReferenceStore, 'listMunicipalities'>,
  options: SyncBaseOptions,
): Promise<SyncBaseReport> {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_DATA_URL).replace(/\/+$/, '');
  const now = options.now ?? new Date();
  const sinceYear = sinceYearOf(options.since, now);
  const files: SyncFileReport[] = [];
  const datasets = BASE_DATASETS.filter((d) => !options.datasets || options.datasets.includes(d.dataset));
  let stopped: string | null = null;
  const notTried: BaseDataset[] = [];
  for (const { dataset, slug } of datasets) {
    if (stopped !== null) {
      notTried.push(dataset);
      continue;
    }
    const listUrl = `${baseUrl}/${slug}/`;
    let resources: Resource[];
    try {
      resources = yearlyResources(JSON.parse((await options.client.get(listUrl)).body.toString('utf8')), sinceYear);
    } catch (error) {
      files.push({
        dataset,
        year: sinceYear,
        url: listUrl,
        status: 'failed',
        error: `the list of files: ${(error as Error).message}`,
      });
      options.log?.(
        `BASE ${dataset}: FAILED — cannot read the list of files at ${listUrl}: ${(error as Error).message}`,
      );
      if (error instanceof HostUnreachableError) stopped = error.message;
      continue;
    }
    if (resources.length === 0) options.log?.(`BASE ${dataset}: no file of ${sinceYear} or later at ${listUrl}`);
    for (const resource of resources) {
      if (stopped !== null) break;
      const report: SyncFileReport = { dataset, year: resource.year, url: resource.url, status: 'failed' };
      files.push(report);
      try {
        const fetched = await options.client.get(resource.url, '*/*');
        report.bytes = fetched.body.length;
        const { bytes, format, name } = unpack(fetched, resource);
        const imported = await importBase(dataset, store, bytes, { format, fileName: name, now });
        const written = imported.written[dataset];
        Object.assign(report, {
          status: 'imported',
          rows_read: imported.rows_read,
          accepted: imported.accepted,
          rejected: imported.rejected.length,
          inserted: written.inserted,
          updated: written.updated,
          unchanged: written.unchanged,
        });
      } catch (error) {
        report.error = (error as Error).message;
        if (error instanceof HostUnreachableError) stopped = error.message;
      }
      options.log?.(fileLine(report));
    }
  }
  return {
    base_url: baseUrl,
    since_year: sinceYear,
    files,
    requests: options.client.requests,
    ok: stopped === null && files.every((f) => f.status === 'imported'),
    stopped,
    not_tried: notTried,
  };
}

function sinceYearOf(since: string | undefined, now: Date): number {
  if (since === undefined) return now.getUTCFullYear();
  if (!isCalendarPeriod(since)) throw new Error(`--since must be YYYY or YYYY-MM-DD, not "${since}"`);
  return Number(since.slice(0, 4));
}

/**
 * The dataset's yearly JSON files (a JSON file, or a ZIP holding one) of `sinceYear` or later, oldest first; the
 * year is read from the file's title or name (`contratos2026.zip`, `Anúncios 2025 (JSON)`). XLSX copies are left.
 */
function yearlyResources(dataset: unknown, sinceYear: number): Resource[] {
  const list = (dataset as { resources?: unknown }).resources;
  if (!Array.isArray(list)) throw new Error('not a dados.gov.pt dataset (no "resources")');
  const byYear = new Map<number, Resource>();
  for (const r of list as Record<string, unknown>[]) {
    const url = typeof r.url === 'string' ? r.url : '';
    const title = typeof r.title === 'string' ? r.title : '';
    const format = (typeof r.format === 'string' ? r.format : '').toLowerCase();
    const name = decodeURIComponent(url.split('?')[0].split('/').pop() ?? '');
    if (!/json|zip/.test(format) && !/\.(json|zip)$/i.test(name)) continue;
    const year = Number(/(20\d{2})/.exec(`${title} ${name}`)?.[1]);
    if (!Number.isInteger(year) || year < sinceYear || url === '') continue;
    // One file per year: JSON before a ZIP of the same year would be the same data twice.
    const held = byYear.get(year);
    if (!held || (held.format.includes('zip') && !format.includes('zip')))
      byYear.set(year, { url, title, format, year });
  }
  return [...byYear.values()].sort((a, b) => a.year - b.year);
}

/** The JSON file itself, or the one JSON file inside a ZIP. */
function unpack(fetched: FetchedFile, resource: Resource): { bytes: Buffer; format: BaseFormat; name: string } {
  const name = decodeURIComponent(resource.url.split('?')[0].split('/').pop() ?? resource.title);
  if (!isZip(fetched.body)) return { bytes: fetched.body, format: /\.csv$/i.test(name) ? 'csv' : 'json', name };
  return theDataFileIn(fetched.body, name);
}

function fileLine(r: SyncFileReport): string {
  const size = r.bytes === undefined ? '' : ` (${(r.bytes / 1e6).toFixed(1)} MB)`;
  if (r.status === 'failed') return `BASE ${r.dataset} ${r.year}${size}: FAILED, nothing written — ${r.error}`;
  return (
    `BASE ${r.dataset} ${r.year}${size}: ${r.rows_read} rows, ${r.accepted} accepted, ${r.rejected} rejected; ` +
    `${r.inserted} inserted, ${r.updated} updated, ${r.unchanged} unchanged`
  );
}
