/**
 * The pipeline's tables (docs/pipeline.md), written once for both stores (../sql/migration.ts): one lease per step
 * (who runs it, until when: milliseconds since the epoch, so that a holder that dies stops holding it), and one
 * status row per step (its run in progress, its last success and its last error), which every instance's
 * `/readyz` and the console read.
 */
import type { SharedMigration } from '../sql/migration.js';

export const PIPELINE_MIGRATION: SharedMigration = {
  version: 108,
  name: 'pipeline',
  sql: (types) => `
CREATE TABLE pipeline_leases (
  step ${types.key} PRIMARY KEY,
  holder ${types.key} NOT NULL,
  expires_at ${types.bigint} NOT NULL
);
CREATE TABLE pipeline_steps (
  step ${types.key} PRIMARY KEY,
  running_holder ${types.text},
  running_since ${types.text},
  progress ${types.text},
  last_started_at ${types.text},
  last_success_at ${types.text},
  last_seconds ${types.real},
  last_summary ${types.text},
  last_error ${types.text},
  last_error_at ${types.text}
);
`,
};
