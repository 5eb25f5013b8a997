/**
 * `updated_at` on the records lists serve to syncing clients (./change-stamp.ts): contracts, signals, cases and
 * alert matches, each with the index its change order walks. Rows written before it take the instant they were
 * last written, as far as it is known (a contract's imported_at, a signal's and a case's last_seen_at, a match's
 * matched_at; the epoch for a case that never had one), and the stamp clock starts at the newest of them.
 */
import type { SharedMigration } from '../sql/migration.js';
import { STAMP_CLOCK } from './change-stamp.js';

const EPOCH = "'1970-01-01T00:00:00.000Z'";
/** A whole-second RFC 3339 UTC instant (`…:00Z`) in the stamps' millisecond form. */
const inStampForm = (column: string) => `substr(${column}, 1, 19) || '.000Z'`;
const TABLES = ['contracts', 'signals', 'cases', 'alert_matches'];

export const UPDATED_AT_MIGRATION: SharedMigration = {
  version: 112,
  name: 'updated-at',
  sql: (t) => `
${TABLES.map((table) => `ALTER TABLE ${table} ADD COLUMN updated_at ${t.key} NOT NULL DEFAULT ${EPOCH};`).join('\n')}
UPDATE contracts SET updated_at = ${inStampForm('imported_at')};
UPDATE signals SET updated_at = ${inStampForm('last_seen_at')};
UPDATE cases SET updated_at = ${inStampForm('last_seen_at')} WHERE last_seen_at <> '';
UPDATE alert_matches SET updated_at = ${inStampForm('matched_at')};
CREATE INDEX contracts_by_update ON contracts (updated_at, id);
CREATE INDEX signals_by_update ON signals (updated_at, id);
CREATE INDEX cases_by_update ON cases (updated_at, id);
CREATE INDEX alert_matches_by_update ON alert_matches (account_id, updated_at, id);
INSERT INTO watermarks (name, value)
SELECT '${STAMP_CLOCK}', newest FROM (
  SELECT max(u.at) AS newest FROM (
    ${TABLES.map((table) => `SELECT max(updated_at) AS at FROM ${table}`).join('\n    UNION ALL ')}
  ) AS u
) AS n WHERE newest IS NOT NULL;
`,
};
