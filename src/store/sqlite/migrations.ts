/**
 * Per dialect (each released versions 1–99 with its own numbering): SQLite's column types and table forms for the
 * schema written once (../schema/), and its versions 1–7 over it (from 100 on: ../sql/migrations.ts). A released
 * migration never changes what it makes: a change is a new entry. test/__schema__/sqlite.txt is what they make.
 */
import { companyAgents } from '../schema/company-agents.js';
import { foundation } from '../schema/foundation.js';
import { municipalitySets } from '../schema/municipality-sets.js';
import { PROCESS_INDEX, procurement } from '../schema/procurement.js';
import { signalsAlerts } from '../schema/signals-alerts.js';
import type { DdlTypes, Migration } from '../sql/migration.js';
import { SQLITE_DIALECT } from './connection.js';
import { SQLITE_TEXT_SEARCH_DDL } from './procurement/text-search.js';

export const SQLITE_TYPES: DdlTypes = {
  id: 'INTEGER PRIMARY KEY',
  ref: 'INTEGER',
  integer: 'INTEGER',
  bigint: 'INTEGER',
  real: 'REAL',
  text: 'TEXT',
  key: 'TEXT',
  flag: 'INTEGER',
  list: 'TEXT',
  sequence: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  false: '0',
  true: '1',
  isTrue: SQLITE_DIALECT.isTrue,
  clustered: ' WITHOUT ROWID',
  covering: (keys, carried) => `(${keys}, ${carried})`,
  carryInPrimaryKey: () => '',
  search: SQLITE_TEXT_SEARCH_DDL,
};

/** Migration 5 fills the sets from the contracts a store upgraded from version 4 already held. */
const SET_FILL = `
CREATE TEMP TABLE multi_contracts AS
  SELECT contract_id, group_concat(municipality_id, ',' ORDER BY municipality_id) AS members
  FROM contract_municipalities GROUP BY contract_id HAVING count(*) > 1;

INSERT INTO municipality_sets (members) SELECT DISTINCT members FROM temp.multi_contracts ORDER BY members;

INSERT OR IGNORE INTO municipality_set_members (municipality_id, set_id)
  SELECT cm.municipality_id, s.id
  FROM temp.multi_contracts mc
  JOIN municipality_sets s ON s.members = mc.members
  JOIN contract_municipalities cm ON cm.contract_id = mc.contract_id;

INSERT INTO contract_set_rollups (set_id, month, cpv_division, procedure_type, count, total_cents)
  SELECT s.id, substr(c.published_on, 1, 7), coalesce(c.cpv_division, ''), coalesce(c.procedure_type, ''),
         count(*), sum(CAST(round(coalesce(c.price_eur, 0) * 100) AS INTEGER))
  FROM temp.multi_contracts mc
  JOIN municipality_sets s ON s.members = mc.members
  JOIN contracts c ON c.id = mc.contract_id
  GROUP BY 1, 2, 3, 4;

DROP TABLE temp.multi_contracts;
`;

/**
 * Migration 4 started the change journal empty, so a store upgraded from version 3 or earlier would never detect
 * the records it already held. When the journal is still empty, every stored record gets its entry here, as if it
 * had just been written. (A store created at version 4 or later has its entries already.)
 */
const JOURNAL_BACKFILL = `
CREATE TEMP TABLE journal_was_empty AS SELECT NOT EXISTS (SELECT 1 FROM changes) AS empty;

INSERT INTO changes (kind, record_id, record_key, item_date)
  SELECT 'announcement', id, NULL, nullif(published_on, '') FROM announcements
  WHERE (SELECT empty FROM temp.journal_was_empty) ORDER BY id;
INSERT INTO changes (kind, record_id, record_key, item_date)
  SELECT 'contract', id, NULL, nullif(published_on, '') FROM contracts
  WHERE (SELECT empty FROM temp.journal_was_empty) ORDER BY id;
INSERT INTO changes (kind, record_id, record_key, item_date)
  SELECT 'amendment', id, NULL, nullif(date, '') FROM amendments
  WHERE (SELECT empty FROM temp.journal_was_empty) ORDER BY id;
INSERT INTO changes (kind, record_id, record_key, item_date)
  SELECT 'observation', municipality_id, indicator, max(reference_date) FROM observations
  WHERE (SELECT empty FROM temp.journal_was_empty)
  GROUP BY indicator, municipality_id ORDER BY indicator, municipality_id;

DROP TABLE temp.journal_was_empty;
`;

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'foundation', sql: foundation(SQLITE_TYPES) },
  { version: 2, name: 'procurement', sql: procurement(SQLITE_TYPES) },
  { version: 3, name: 'ocds-process-index', sql: PROCESS_INDEX },
  { version: 4, name: 'signals-alerts', sql: signalsAlerts(SQLITE_TYPES) },
  { version: 5, name: 'contract-municipality-sets', sql: municipalitySets(SQLITE_TYPES) + SET_FILL },
  { version: 6, name: 'company-agents', sql: companyAgents(SQLITE_TYPES) },
  { version: 7, name: 'journal-backfill', sql: JOURNAL_BACKFILL },
];
