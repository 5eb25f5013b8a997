/**
 * `munidata sync ine [--indicator KEY...] [--since DATE]`: fetches each catalogue indicator that has an INE code
 * (`ine_varcd` in data/indicators.json) from INE's JSON API, one period per request, and imports every answer
 * through the INE importer — one transaction per answer, so an answer that could not be fetched whole writes
 * nothing. Incremental: an indicator that already holds this INE code's data is fetched from its latest stored
 * period on (that period again, for INE's revisions); otherwise from `since` (default: 15 years, or 36 months,
 * back). Polite: one request at a time (polite-client.ts). A host that cannot be reached stops the sync: every
 * indicator asks the same one. See docs/data.md, Syncing.
 */
import { AdminError } from '../../lib/admin-error.js';
import { isCalendarPeriod } from '../../lib/calendar.js';
import type { Store } from '../../store/store.js';
import { type IneMapping, readIneMappings } from '../catalogue.js';
import { importIne } from '../ine/import-ine.js';
import { IneErrorResponse } from '../ine/parse.js';
import { HostUnreachableError, type PoliteClient } from './polite-client.js';

export const DEFAULT_INE_BASE_URL = 'https://www.ine.pt';

export interface SyncIneOptions {
  readonly client: PoliteClient;
  /** Where INE's API lives (`…/ine/json_indicador/pindica.jsp` below it); default https://www.ine.pt. */
  readonly baseUrl?: string;
  /** Catalogue keys; default every indicator with an INE code. */
  readonly indicators?: readonly string[];
  /** First date to fetch when an indicator holds none of this code's data yet (YYYY-MM-DD or YYYY). */
  readonly since?: string;
  readonly now?: Date;
  /** Import a file even when its code, unit or the series' source contradicts (as `import ine --force`). */
  readonly force?: boolean;
  /** One progress line per indicator (and per retry). */
  readonly log?: (line: string) => void;
  /** The mappings to use; default the shipped catalogue's. */
  readonly mappings?: ReadonlyMap<string, IneMapping>;
}

export interface SyncIndicatorReport {
  readonly indicator: string;
  readonly ine_code: string;
  status: 'ok' | 'failed' | 'refused';
  readonly periods: {
    period: string;
    status: 'imported' | 'not published' | 'empty';
    inserted: number;
    updated: number;
    unchanged: number;
  }[];
  error?: string;
}

export interface SyncIneReport {
  readonly base_url: string;
  readonly indicators: SyncIndicatorReport[];
  readonly requests: number;
  /** Every indicator synced or found nothing new. */
  readonly ok: boolean;
  /** Why the sync stopped before its last indicator (the host cannot be reached); null when it did not. */
  readonly stopped: string | null;
  /** The indicators it did not ask for, having stopped. */
  readonly not_tried: string[];
}

export async function syncIne(store: Store, options: SyncIneOptions): Promise<SyncIneReport> {
  const baseUrl = (options.baseUrl ?? DEFAULT_INE_BASE_URL).replace(/\/+$/, '');
  const mappings = options.mappings ?? readIneMappings();
  const now = options.now ?? new Date();
  const catalogue = await store.listIndicators();
  const keys = options.indicators ?? [...mappings].filter(([, m]) => m.ine_varcd !== null).map(([key]) => key);
  for (const key of keys) {
    if (!catalogue.some((i) => i.key === key))
      throw new Error(`unknown indicator "${key}"; the catalogue has: ${catalogue.map((i) => i.key).join(', ')}`);
    if (!mappings.get(key)?.ine_varcd) {
      const mapped = [...mappings].filter(([, m]) => m.ine_varcd !== null).map(([k]) => k);
      throw new Error(
        `indicator "${key}" has no INE code in the catalogue (data/indicators.json); ` +
          `those that have one: ${mapped.join(', ')}`,
      );
    }
  }

  const reports: SyncIndicatorReport[] = [];
  let stopped: string | null = null;
  for (const key of keys) {
    if (stopped !== null) break;
    const mapping = mappings.get(key) as IneMapping & { ine_varcd: string };
    const indicator = catalogue.find((i) => i.key === key);
    const monthly = indicator?.frequency === 'monthly';
    const report: SyncIndicatorReport = { indicator: key, ine_code: mapping.ine_varcd, status: 'ok', periods: [] };
    reports.push(report);
    const first = await firstPeriod(
      store,
      key,
      mapping.ine_varcd,
      indicator?.source ?? null,
      monthly,
      options.since,
      now,
    );
    const periods = periodRange(first, now, monthly);
    for (const period of periods) {
      const url = dataUrl(baseUrl, mapping, period.code);
      let body: string;
      try {
        body = (await options.client.get(url)).body.toString('utf8');
      } catch (error) {
        report.status = 'failed';
        report.error = (error as Error).message;
        if (error instanceof HostUnreachableError) stopped = error.message;
        break;
      }
      try {
        const imported = await importIne(store, body, {
          indicator: key,
          dimensions: mapping.ine_dimensions ?? undefined,
          catalogueCode: mapping.ine_varcd,
          force: options.force,
        });
        const empty = imported.placed.rows === 0;
        report.periods.push({
          period: period.label,
          status: empty ? 'empty' : 'imported',
          inserted: imported.placed.inserted,
          updated: imported.placed.updated,
          unchanged: imported.placed.unchanged,
        });
      } catch (error) {
        if (error instanceof IneErrorResponse) {
          report.periods.push({ period: period.label, status: 'not published', inserted: 0, updated: 0, unchanged: 0 });
          continue;
        }
        report.status = error instanceof AdminError ? 'refused' : 'failed';
        report.error = (error as Error).message;
        break;
      }
    }
    options.log?.(progressLine(report, periods));
  }
  return {
    base_url: baseUrl,
    indicators: reports,
    requests: options.client.requests,
    ok: stopped === null && reports.every((r) => r.status === 'ok'),
    stopped,
    not_tried: keys.slice(reports.length),
  };
}

interface Period {
  /** INE's Dim1 code: S7A2024 (year), S3A202406 (month). */
  readonly code: string;
  readonly label: string;
}

/** The data request of one period: the indicator, the period, and the dimension filters the catalogue knows. */
export function dataUrl(baseUrl: string, mapping: IneMapping & { ine_varcd: string }, period: string): string {
  const query = new URLSearchParams({ op: '2', varcd: mapping.ine_varcd, Dim1: period, lang: 'PT' });
  for (const [dim, category] of Object.entries(mapping.ine_dimensions ?? {}))
    query.set(`Dim${dim.replace(/^dim_/, '')}`, category);
  return `${baseUrl}/ine/json_indicador/pindica.jsp?${query}`;
}

/** YYYY-MM of the first period to fetch. */
async function firstPeriod(
  store: Store,
  key: string,
  code: string,
  source: string | null,
  monthly: boolean,
  since: string | undefined,
  now: Date,
): Promise<string> {
  if (source?.startsWith(`INE ${code}`)) {
    const latest = (await store.latestPerMunicipality(key)).reduce(
      (max, r) => (r.reference_date > max ? r.reference_date : max),
      '',
    );
    if (latest !== '') return latest.slice(0, 7);
  }
  if (since !== undefined) {
    if (!isCalendarPeriod(since)) throw new Error(`--since must be YYYY, YYYY-MM or YYYY-MM-DD, not "${since}"`);
    return since.length === 4 ? `${since}-01` : since.slice(0, 7);
  }
  const back = new Date(Date.UTC(now.getUTCFullYear() - (monthly ? 3 : 15), now.getUTCMonth(), 1));
  return back.toISOString().slice(0, 7);
}

function periodRange(first: string, now: Date, monthly: boolean): Period[] {
  const [year, month] = first.split('-').map(Number);
  const lastYear = now.getUTCFullYear();
  const periods: Period[] = [];
  if (!monthly) {
    for (let y = year; y <= lastYear; y++) periods.push({ code: `S7A${y}`, label: String(y) });
    return periods;
  }
  const lastMonth = lastYear * 12 + now.getUTCMonth();
  for (let m = year * 12 + (month - 1); m <= lastMonth; m++) {
    const yyyy = Math.floor(m / 12);
    const mm = String((m % 12) + 1).padStart(2, '0');
    periods.push({ code: `S3A${yyyy}${mm}`, label: `${yyyy}-${mm}` });
  }
  return periods;
}

function progressLine(r: SyncIndicatorReport, periods: readonly Period[]): string {
  const imported = r.periods.filter((p) => p.status === 'imported');
  const sum = (f: 'inserted' | 'updated' | 'unchanged') => imported.reduce((n, p) => n + p[f], 0);
  const span = periods.length === 0 ? 'nothing to fetch' : `${periods[0].label}…${periods[periods.length - 1].label}`;
  const parts = [
    `${imported.length} of ${periods.length} periods imported ` +
      `(${sum('inserted')} points inserted, ${sum('updated')} updated, ${sum('unchanged')} unchanged)`,
  ];
  const unpublished = r.periods.filter((p) => p.status === 'not published').length;
  if (unpublished > 0) parts.push(`${unpublished} not published`);
  const empty = r.periods.filter((p) => p.status === 'empty').length;
  if (empty > 0) parts.push(`${empty} without municipal rows`);
  const head = `INE ${r.indicator} (${r.ine_code}) ${span}: ${r.status === 'ok' ? '' : `${r.status.toUpperCase()} — `}`;
  return `${head}${parts.join(', ')}${r.error ? `; ${r.error}` : ''}`;
}
