/**
 * The corpus statistics kept across processes (Store.keptCorpusStatistic, Store.keepCorpusStatistic): what a corpus
 * query answered, as JSON, for the procurement version it was read at (schema/procurement.ts, CORPUS_STATISTICS).
 */
import type { SqlPort } from '../sql/port.js';

/** The value kept under `key` for `version`; undefined when none is, or only one of another version. */
export async function keptCorpusStatistic(port: SqlPort, key: string, version: number): Promise<unknown> {
  const [row] = await port.query('SELECT value FROM corpus_statistics WHERE key = $1 AND procurement_version = $2', [
    key,
    version,
  ]);
  return row === undefined ? undefined : JSON.parse(String(row.value));
}

/** Keeps `value` under `key` for `version`, unless a newer version's is kept already (processes race harmlessly). */
export async function keepCorpusStatistic(port: SqlPort, key: string, version: number, value: unknown): Promise<void> {
  await port.run(
    `INSERT INTO corpus_statistics (key, procurement_version, value) VALUES ($1, $2, $3)
     ON CONFLICT (key) DO UPDATE SET procurement_version = excluded.procurement_version, value = excluded.value
      WHERE corpus_statistics.procurement_version < excluded.procurement_version`,
    [key, version, JSON.stringify(value)],
  );
}
