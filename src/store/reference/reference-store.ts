/**
 * Municipalities, indicators and their observations, in every store (see ReferenceStore and ObservationStore in
 * ../store.ts). Every write is one transaction with one data-version bump when anything changed.
 */
import { bumpDataVersion } from '../meta.js';
import type {
  IndicatorRecord,
  MunicipalityRecord,
  ObservationInput,
  ObservationRow,
  SeriesCoverage,
  WriteSummary,
} from '../records.js';
import type { Row, SqlPort, SqlPorts } from '../sql/port.js';
import { insertInto, setExcluded } from '../sql/statements.js';
import type { ReferenceStore, SeriesQuery } from '../store.js';
import { writeObservations } from './observations.js';

export class SqlReferenceStore implements ReferenceStore {
  readonly #ports: SqlPorts;

  constructor(ports: SqlPorts) {
    this.#ports = ports;
  }

  async listMunicipalities(): Promise<MunicipalityRecord[]> {
    return (await this.#ports.replica.query(
      'SELECT * FROM municipalities ORDER BY code',
    )) as unknown as MunicipalityRecord[];
  }

  async saveMunicipalities(rows: readonly MunicipalityRecord[]): Promise<WriteSummary> {
    return this.#ports.primary.transaction((tx) => saveRows(tx, 'municipalities', 'id', rows as unknown as Row[]));
  }

  async listIndicators(): Promise<IndicatorRecord[]> {
    const { flag } = this.#ports.replica.dialect.columns;
    return (await this.#ports.replica.query('SELECT * FROM indicators ORDER BY key')).map((row) => ({
      ...(row as unknown as IndicatorRecord),
      per_capita: flag(row.per_capita) === true,
    }));
  }

  async saveIndicators(rows: readonly IndicatorRecord[]): Promise<WriteSummary> {
    return this.#ports.primary.transaction((tx) => saveRows(tx, 'indicators', 'key', rows as unknown as Row[]));
  }

  async setIndicatorSource(key: string, source: string): Promise<void> {
    await this.#ports.primary.transaction(async (tx) => {
      if (
        await tx.run('UPDATE indicators SET source = $1 WHERE key = $2 AND source IS DISTINCT FROM $1', [source, key])
      ) {
        await bumpDataVersion(tx);
      }
    });
  }

  async series(q: SeriesQuery): Promise<ObservationRow[]> {
    return (await this.#ports.replica.query(
      `SELECT municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = $1 AND municipality_id = $2
         AND reference_date >= $3 AND reference_date <= $4 AND reference_date > $5
       ORDER BY reference_date LIMIT $6`,
      [q.indicator, q.municipalityId, q.from ?? '', q.to ?? '9999-12-31', q.after ?? '', q.limit],
    )) as unknown as ObservationRow[];
  }

  async indicatorPoints(indicator: string): Promise<ObservationRow[]> {
    return (await this.#ports.replica.query(
      `SELECT municipality_id, reference_date, value, value_norm, treatment FROM observations
       WHERE indicator = $1
       ORDER BY municipality_id, reference_date`,
      [indicator],
    )) as unknown as ObservationRow[];
  }

  async countObservations(indicator?: string): Promise<number> {
    const [row] =
      indicator === undefined
        ? await this.#ports.replica.query('SELECT count(*) AS n FROM observations')
        : await this.#ports.replica.query('SELECT count(*) AS n FROM observations WHERE indicator = $1', [indicator]);
    return Number(row.n);
  }

  /** One row per indicator that has points (the `sources` operation): one scan of the observations. */
  async seriesCoverage(): Promise<SeriesCoverage[]> {
    const rows = await this.#ports.replica.query(
      `SELECT indicator, count(*) AS n, count(DISTINCT municipality_id) AS m,
              min(reference_date) AS first, max(reference_date) AS last
         FROM observations GROUP BY indicator ORDER BY indicator`,
    );
    return rows.map((r) => ({
      indicator: String(r.indicator),
      observations: Number(r.n),
      municipalities: Number(r.m),
      first_date: String(r.first),
      last_date: String(r.last),
    }));
  }

  async writeObservations(
    indicator: string,
    rows: readonly ObservationInput[],
    options: { replace?: boolean } = {},
  ): Promise<WriteSummary> {
    return this.#ports.primary.transaction((tx) => writeObservations(tx, indicator, rows, options));
  }
}

/**
 * Insert-or-update of whole records by primary key, counting what changed: the stored rows are read in one
 * statement and compared here; only new or changed ones are written, with one data-version bump.
 */
async function saveRows(tx: SqlPort, table: string, pk: string, rows: readonly Row[]): Promise<WriteSummary> {
  const summary: WriteSummary = { inserted: 0, updated: 0, unchanged: 0 };
  if (rows.length === 0) return summary;
  const columns = Object.keys(rows[0]);
  const stored = await tx.query(`SELECT ${columns.join(', ')} FROM ${table} WHERE ${tx.dialect.inList(pk, '$1')}`, [
    rows.map((r) => r[pk]),
  ]);
  const existing = new Map(stored.map((r) => [r[pk], r]));
  const upsert = `${insertInto(table, columns)} ON CONFLICT (${pk}) DO UPDATE SET ${setExcluded(columns)}`;
  for (const row of rows) {
    const old = existing.get(row[pk]);
    if (!old) summary.inserted++;
    else if (columns.some((c) => !sameValue(tx, old[c], row[c]))) summary.updated++;
    else {
      summary.unchanged++;
      continue;
    }
    // Compared one after the other: a key given twice is written once per change, the last one standing.
    existing.set(row[pk], row);
    await tx.run(
      upsert,
      columns.map((c) => row[c]),
    );
  }
  if (summary.inserted + summary.updated > 0) await bumpDataVersion(tx);
  return summary;
}

/** A stored value and a written one are the same (flags as the dialect stores them; undefined is null). */
function sameValue(tx: SqlPort, stored: unknown, written: unknown): boolean {
  if (typeof written === 'boolean')
    return (typeof stored === 'boolean' ? stored : tx.dialect.columns.flag(stored)) === written;
  return (stored ?? null) === (written ?? null);
}
