/**
 * The migrations from version 100 on (see ./migration.ts): one text and one version for both stores, over
 * `DdlTypes`. A released migration never changes what it makes: a change is a new entry.
 */
import { USAGE_WRITERS_MIGRATION } from '../access/usage-batches.js';
import { UPDATED_AT_MIGRATION } from '../changes/updated-at-migration.js';
import {
  CONSOLE_FORM_USES_MIGRATION,
  CONSOLE_KEY_USE_MIGRATION,
  CONSOLE_MIGRATION,
} from '../console/console-migration.js';
import { OAUTH_MIGRATION } from '../oauth/oauth-migration.js';
import { PIPELINE_MIGRATION } from '../pipeline/pipeline-migration.js';
import { AGENT_TASK_OUTPUT_MODES } from '../schema/company-agents.js';
import { BUYER_YEARS, CONTRACTS_BY_NOTICE, CORPUS_STATISTICS, ROLLUP_SUMS_IN_KEY } from '../schema/procurement.js';
import { WEBHOOK_DELIVERIES, WEBHOOK_ENDPOINTS, WEBHOOK_NOTICES } from '../schema/webhooks.js';
import { ALERT_FEEDS_MIGRATION } from '../signals/alert-feed-migration.js';
import type { SharedMigration } from './migration.js';

export const SHARED_MIGRATIONS: readonly SharedMigration[] = [
  CONSOLE_MIGRATION,
  CONSOLE_KEY_USE_MIGRATION,
  OAUTH_MIGRATION,
  ROLLUP_SUMS_IN_KEY,
  CONTRACTS_BY_NOTICE,
  WEBHOOK_ENDPOINTS,
  WEBHOOK_DELIVERIES,
  PIPELINE_MIGRATION,
  ALERT_FEEDS_MIGRATION,
  UPDATED_AT_MIGRATION,
  WEBHOOK_NOTICES,
  USAGE_WRITERS_MIGRATION,
  CONSOLE_FORM_USES_MIGRATION,
  AGENT_TASK_OUTPUT_MODES,
  BUYER_YEARS,
  CORPUS_STATISTICS,
];
