/**
 * Per dialect: versions 1–99 as each database was created, never edited (from 100 on: ../sql/migrations.ts).
 *
 * The SQLite schema, as numbered migrations applied in order and recorded in `schema_migrations`.
 * A migration, once released, is never edited: a change is a new entry.
 */
import type { DdlTypes, Migration } from '../sql/migration.js';

/** The column types of the migrations written once (../sql/migrations.ts). */
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
};

export const SQLITE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'foundation',
    sql: `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

CREATE TABLE plans (
  code                TEXT PRIMARY KEY,
  name                TEXT NOT NULL,
  api_access          INTEGER NOT NULL,
  domains             TEXT NOT NULL,           -- JSON array of domain names
  raw_values          INTEGER NOT NULL,
  judge               INTEGER NOT NULL,
  requests_per_minute INTEGER,
  requests_per_month  INTEGER,
  history_years       INTEGER,
  alerts_history_days INTEGER
);

CREATE TABLE accounts (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL,
  plan_code  TEXT NOT NULL REFERENCES plans (code),
  beta       INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id         INTEGER PRIMARY KEY,
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  lookup     TEXT NOT NULL UNIQUE,
  hash       TEXT NOT NULL,
  label      TEXT,
  scopes     TEXT NOT NULL,                    -- JSON array of scopes
  expires_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE beta_gates (
  target TEXT PRIMARY KEY                      -- an operation name or a domain
);

CREATE TABLE usage (
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  period     TEXT NOT NULL,                    -- YYYY-MM (UTC)
  count      INTEGER NOT NULL,
  PRIMARY KEY (account_id, period)
) WITHOUT ROWID;

CREATE TABLE municipalities (
  id              INTEGER PRIMARY KEY,
  code            TEXT NOT NULL UNIQUE,
  slug            TEXT NOT NULL UNIQUE,
  name            TEXT NOT NULL,
  district        TEXT NOT NULL,
  nuts_ii         TEXT NOT NULL,
  nuts_iii        TEXT NOT NULL,
  nuts_iii_code   TEXT NOT NULL,
  island          TEXT,
  population_2021 INTEGER NOT NULL,
  area_km2        REAL NOT NULL,
  nif             TEXT NOT NULL
);

CREATE TABLE indicators (
  key              TEXT PRIMARY KEY,
  name             TEXT NOT NULL,
  name_pt          TEXT NOT NULL,
  category         TEXT NOT NULL,
  unit             TEXT NOT NULL,
  unit_display     TEXT,
  direction        TEXT NOT NULL,
  source           TEXT,
  country_code     TEXT NOT NULL,
  value_domain     TEXT NOT NULL,
  treatment        TEXT NOT NULL,
  summary          TEXT,
  summary_pt       TEXT,
  currency_code    TEXT,
  scale_factor     REAL NOT NULL DEFAULT 1.0,
  per_capita       INTEGER NOT NULL DEFAULT 0,
  unit_description TEXT,
  frequency        TEXT NOT NULL
);

CREATE TABLE observations (
  indicator       TEXT NOT NULL REFERENCES indicators (key),
  municipality_id INTEGER NOT NULL REFERENCES municipalities (id),
  reference_date  TEXT NOT NULL,
  value           REAL,
  value_norm      REAL,
  treatment       TEXT NOT NULL,
  PRIMARY KEY (indicator, municipality_id, reference_date)
) WITHOUT ROWID;
CREATE INDEX observations_by_municipality ON observations (municipality_id, indicator, reference_date);
`,
  },
  {
    version: 2,
    name: 'procurement',
    // Conventions: a date the source did not give is '' where the column orders a keyset list (published_on,
    // amendment date), so that every position is a plain comparable string; NULL elsewhere. Child tables copy
    // the parent's ordering date so that a filter (municipality, party) and the order are one index range.
    // Lists walk these indexes in order and stop after a page: no OFFSET, no sort of the whole result.
    sql: `
CREATE TABLE cpvs (
  code     TEXT PRIMARY KEY,                   -- 8 digits, without the check digit
  division TEXT NOT NULL,                      -- first 2 digits
  label_pt TEXT,
  label_en TEXT
) WITHOUT ROWID;

CREATE TABLE entities (
  id                    INTEGER PRIMARY KEY,   -- stable rowid for the text index
  nif                   TEXT NOT NULL UNIQUE,
  name                  TEXT NOT NULL,
  kind                  TEXT NOT NULL,         -- municipality, public_body, company, person
  country               TEXT,
  municipality_id       INTEGER REFERENCES municipalities (id),
  name_key              TEXT NOT NULL,         -- folded name, punctuation as spaces (lookups)
  search_text           TEXT NOT NULL,         -- folded name and tax number (q)
  -- Maintained by refreshProcurementRollups from contract_parties:
  contracts_as_buyer    INTEGER NOT NULL DEFAULT 0,
  contracts_as_supplier INTEGER NOT NULL DEFAULT 0,
  total_as_buyer_eur    REAL NOT NULL DEFAULT 0,
  total_as_supplier_eur REAL NOT NULL DEFAULT 0
);
CREATE INDEX entities_by_kind ON entities (kind, nif);
CREATE INDEX entities_by_municipality ON entities (municipality_id);
CREATE INDEX entities_by_name ON entities (name_key);
CREATE VIRTUAL TABLE entities_fts USING fts5 (
  text, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1', detail = 'none'
);
-- How many names hold each trigram: lookups for typos start from the rare trigrams of what was typed.
CREATE VIRTUAL TABLE entities_fts_terms USING fts5vocab (entities_fts, row);

-- Entities whose totals are stale: written by writeProcurement, emptied by refreshProcurementRollups.
CREATE TABLE entity_rollup_queue (
  nif TEXT PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE contracts (
  id                    INTEGER PRIMARY KEY,
  source                TEXT NOT NULL,
  source_id             TEXT NOT NULL,
  fingerprint           TEXT NOT NULL,         -- hash of the written input: an equal one means unchanged
  procedure_id          TEXT,
  announcement_number   TEXT,
  object                TEXT NOT NULL,
  description           TEXT,
  procedure_type        TEXT,
  procedure_key         TEXT,                  -- folded procedure_type (its filter)
  ocds_method           TEXT,
  contract_types        TEXT NOT NULL,         -- JSON array
  cpv_main              TEXT,
  cpv_division          TEXT,
  base_price_eur        REAL,
  price_eur             REAL,
  effective_price_eur   REAL,
  published_on          TEXT NOT NULL,         -- '' when unknown
  awarded_on            TEXT,
  signed_on             TEXT,
  closed_on             TEXT,
  execution_days        INTEGER,
  execution_places_text TEXT,
  framework_agreement   TEXT,
  legal_basis           TEXT,
  green                 INTEGER,
  centralized           INTEGER,
  link                  TEXT,
  search_text           TEXT NOT NULL,         -- folded object and description (q)
  imported_at           TEXT NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX contracts_by_date ON contracts (published_on DESC, id DESC);
-- CPV prefix filters walk one division in date order; cpv_main in the index checks longer prefixes there.
CREATE INDEX contracts_by_cpv ON contracts (cpv_division, published_on, id, cpv_main);
CREATE INDEX contracts_by_price ON contracts (price_eur);
CREATE INDEX contracts_by_procedure ON contracts (procedure_key, published_on, id);
CREATE VIRTUAL TABLE contracts_fts USING fts5 (
  text, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1', detail = 'none'
);

CREATE TABLE contract_cpvs (
  contract_id INTEGER NOT NULL REFERENCES contracts (id),
  position    INTEGER NOT NULL,                -- 0 is the main CPV
  cpv         TEXT NOT NULL,
  PRIMARY KEY (contract_id, position)
) WITHOUT ROWID;

CREATE TABLE contract_parties (
  contract_id  INTEGER NOT NULL REFERENCES contracts (id),
  role         TEXT NOT NULL,                  -- buyer, supplier, competitor
  position     INTEGER NOT NULL,
  nif          TEXT REFERENCES entities (nif), -- NULL when the source gives no tax number
  name         TEXT NOT NULL,                  -- as published on this contract
  published_on TEXT NOT NULL,                  -- copies of the contract's, for keyset scans and sums
  price_eur    REAL,
  PRIMARY KEY (contract_id, role, position)
) WITHOUT ROWID;
CREATE INDEX contract_parties_by_nif ON contract_parties (nif, role, published_on, contract_id, price_eur);

CREATE TABLE contract_municipalities (
  contract_id     INTEGER NOT NULL REFERENCES contracts (id),
  municipality_id INTEGER NOT NULL REFERENCES municipalities (id),
  published_on    TEXT NOT NULL,
  PRIMARY KEY (contract_id, municipality_id)
) WITHOUT ROWID;
CREATE INDEX contract_municipalities_by_municipality ON contract_municipalities (municipality_id, published_on, contract_id);

-- Contract counts and euros per month, CPV division and procedure type, kept exact by every write (integer
-- cents, so that adding and removing a contract cancel out). scope 0 holds each contract once; scope > 0 once
-- per municipality it is executed in; scope -1 the contracts executed in none. '' stands for unknown.
CREATE TABLE contract_rollups (
  scope          INTEGER NOT NULL,
  month          TEXT NOT NULL,
  cpv_division   TEXT NOT NULL,
  procedure_type TEXT NOT NULL,
  count          INTEGER NOT NULL,
  total_cents    INTEGER NOT NULL,
  PRIMARY KEY (scope, month, cpv_division, procedure_type)
) WITHOUT ROWID;

-- The same per scope and month only: what groupings by year, month or municipality (and every total) read.
CREATE TABLE contract_month_rollups (
  scope       INTEGER NOT NULL,
  month       TEXT NOT NULL,
  count       INTEGER NOT NULL,
  total_cents INTEGER NOT NULL,
  PRIMARY KEY (scope, month)
) WITHOUT ROWID;

CREATE TABLE announcements (
  id              INTEGER PRIMARY KEY,
  source          TEXT NOT NULL,
  source_id       TEXT NOT NULL,
  fingerprint     TEXT NOT NULL,
  published_on    TEXT NOT NULL,               -- '' when unknown
  deadline_on     TEXT,
  buyer_nif       TEXT REFERENCES entities (nif),
  buyer_name      TEXT NOT NULL,
  object          TEXT NOT NULL,
  base_price_eur  REAL,
  contract_types  TEXT NOT NULL,               -- JSON array
  procedure_type  TEXT,
  district        TEXT,
  link            TEXT,
  search_text     TEXT NOT NULL,
  imported_at     TEXT NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX announcements_by_date ON announcements (published_on DESC, id DESC);
CREATE INDEX announcements_by_deadline ON announcements (deadline_on, id);
CREATE VIRTUAL TABLE announcements_fts USING fts5 (
  text, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1', detail = 'none'
);

CREATE TABLE announcement_cpvs (
  announcement_id INTEGER NOT NULL REFERENCES announcements (id),
  position        INTEGER NOT NULL,
  cpv             TEXT NOT NULL,
  PRIMARY KEY (announcement_id, position)
) WITHOUT ROWID;

CREATE TABLE announcement_municipalities (
  announcement_id INTEGER NOT NULL REFERENCES announcements (id),
  municipality_id INTEGER NOT NULL REFERENCES municipalities (id),
  published_on    TEXT NOT NULL,
  deadline_on     TEXT,
  PRIMARY KEY (announcement_id, municipality_id)
) WITHOUT ROWID;
CREATE INDEX announcement_municipalities_by_date ON announcement_municipalities (municipality_id, published_on, announcement_id);
CREATE INDEX announcement_municipalities_by_deadline ON announcement_municipalities (municipality_id, deadline_on, announcement_id);

-- The districts an announcement is in: the one it names and those of its municipalities (folded names).
CREATE TABLE announcement_districts (
  announcement_id INTEGER NOT NULL REFERENCES announcements (id),
  district_key    TEXT NOT NULL,
  published_on    TEXT NOT NULL,
  deadline_on     TEXT,
  PRIMARY KEY (announcement_id, district_key)
) WITHOUT ROWID;
CREATE INDEX announcement_districts_by_date ON announcement_districts (district_key, published_on, announcement_id);
CREATE INDEX announcement_districts_by_deadline ON announcement_districts (district_key, deadline_on, announcement_id);

CREATE TABLE amendments (
  id                 INTEGER PRIMARY KEY,
  source             TEXT NOT NULL,
  source_id          TEXT NOT NULL,
  contract_id        INTEGER NOT NULL REFERENCES contracts (id),
  fingerprint        TEXT NOT NULL,
  date               TEXT NOT NULL,            -- '' when unknown
  previous_price_eur REAL,                     -- as given; NULL is derived when read
  new_price_eur      REAL,
  reason             TEXT,
  link               TEXT,
  imported_at        TEXT NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX amendments_by_contract ON amendments (contract_id, date, id);
CREATE INDEX amendments_by_date ON amendments (date DESC, id DESC);
`,
  },
  {
    version: 3,
    name: 'ocds-process-index',
    // The OCDS record of a contracting process gathers the contracts that share its procedure id.
    sql: `
CREATE INDEX contracts_by_procedure_id ON contracts (source, procedure_id);
`,
  },
  {
    version: 4,
    name: 'signals-alerts',
    // The change journal that detectors and the alert matcher consume, signals, their cases, alert rules and
    // matches. Lists are keyset walks of one index in list order (last_seen_at / matched_at descending, then id),
    // as for procurement; a filter with several values (municipalities, types) is one range per value, merged.
    // Instants are RFC 3339 strings, compared as text: writers give them in one format. Cases list only once
    // computed, so their list indexes are partial (WHERE computed = 1), and those that hide episodic cases
    // (a single signal) hold only the others (AND source_count > 1).
    sql: `
CREATE TABLE changes (
  seq        INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: consumers keep the last one they processed
  kind       TEXT NOT NULL,                      -- contract, announcement, amendment, observation, signal
  record_id  INTEGER NOT NULL,                   -- the record's id; for observation the municipality id
  record_key TEXT,                               -- for observation the indicator key
  item_date  TEXT                                -- the record's own date, NULL when unknown
);

CREATE TABLE watermarks (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE signals (
  id                INTEGER PRIMARY KEY,
  key               TEXT NOT NULL UNIQUE,
  origin            TEXT NOT NULL,
  fingerprint       TEXT NOT NULL,               -- hash of the fields and the case reference: equal means unchanged
  type              TEXT NOT NULL,
  family            TEXT NOT NULL,
  municipality_id   INTEGER REFERENCES municipalities (id),
  title_pt          TEXT,
  title_en          TEXT,
  summary_pt        TEXT,
  summary_en        TEXT,
  why_it_matters_pt TEXT,
  why_it_matters_en TEXT,
  next_step_pt      TEXT,
  stage             TEXT,
  status            TEXT NOT NULL,
  value_tier        TEXT,
  confidence        REAL NOT NULL,
  deadline_date     TEXT,
  event_date        TEXT,
  amount_eur        REAL,
  location_text     TEXT,
  actionability     TEXT,
  evidence          TEXT NOT NULL,               -- JSON array of evidence items
  subject           TEXT NOT NULL,               -- JSON: what rules match on besides the served fields
  first_seen_at     TEXT NOT NULL,
  last_seen_at      TEXT NOT NULL
);
CREATE INDEX signals_by_seen ON signals (last_seen_at DESC, id DESC);
CREATE INDEX signals_by_municipality ON signals (municipality_id, last_seen_at, id);
CREATE INDEX signals_by_type ON signals (type, last_seen_at, id);
CREATE INDEX signals_by_family ON signals (family, last_seen_at, id);

CREATE TABLE cases (
  id              INTEGER PRIMARY KEY,
  key             TEXT NOT NULL UNIQUE,
  type            TEXT NOT NULL,
  family          TEXT NOT NULL,
  computed        INTEGER NOT NULL DEFAULT 0,    -- 0 until saveCases first writes its fields
  pending         INTEGER,                       -- NULL, or the journal seq of the signal change that marked it
  municipality_id INTEGER REFERENCES municipalities (id),
  title_pt        TEXT,
  summary_pt      TEXT,
  current_stage   TEXT,
  previous_stage  TEXT,
  status          TEXT,
  value_tier      TEXT,
  confidence      REAL,
  source_count    INTEGER NOT NULL DEFAULT 0,
  deadline_date   TEXT,
  amount_eur      REAL,
  location_text   TEXT,
  event_date      TEXT,
  first_seen_at   TEXT,
  last_seen_at    TEXT NOT NULL DEFAULT ''       -- '' when unknown (orders the list)
);
CREATE INDEX cases_pending ON cases (id) WHERE pending IS NOT NULL;
CREATE INDEX cases_by_seen ON cases (last_seen_at DESC, id DESC) WHERE computed = 1;
CREATE INDEX cases_by_municipality ON cases (municipality_id, last_seen_at, id) WHERE computed = 1;
CREATE INDEX cases_by_family ON cases (family, last_seen_at, id) WHERE computed = 1;
CREATE INDEX cases_linked_by_seen ON cases (last_seen_at DESC, id DESC) WHERE computed = 1 AND source_count > 1;
CREATE INDEX cases_linked_by_municipality ON cases (municipality_id, last_seen_at, id) WHERE computed = 1 AND source_count > 1;
CREATE INDEX cases_linked_by_family ON cases (family, last_seen_at, id) WHERE computed = 1 AND source_count > 1;

CREATE TABLE case_events (
  id         INTEGER PRIMARY KEY,                -- append-only: the history is never rewritten
  case_id    INTEGER NOT NULL REFERENCES cases (id),
  event_type TEXT NOT NULL,
  old_value  TEXT,
  new_value  TEXT,
  reason     TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX case_events_by_case ON case_events (case_id, id);

-- A signal is in at most one case: the signal id is the key.
CREATE TABLE case_links (
  signal_id    INTEGER PRIMARY KEY REFERENCES signals (id),
  case_id      INTEGER NOT NULL REFERENCES cases (id),
  relationship TEXT NOT NULL
);
CREATE INDEX case_links_by_case ON case_links (case_id, signal_id);

CREATE TABLE alert_templates (
  id           INTEGER PRIMARY KEY,
  key          TEXT NOT NULL UNIQUE,
  name         TEXT NOT NULL,
  description  TEXT NOT NULL,
  matcher_type TEXT NOT NULL,
  params       TEXT NOT NULL,                    -- JSON MatcherParams
  source_types TEXT NOT NULL,                    -- JSON array
  target_scope TEXT NOT NULL
);

CREATE TABLE alert_rules (
  id               INTEGER PRIMARY KEY,
  account_id       INTEGER NOT NULL REFERENCES accounts (id),
  name             TEXT NOT NULL,
  matcher_type     TEXT NOT NULL,
  params           TEXT NOT NULL,                -- JSON MatcherParams
  source_types     TEXT NOT NULL,                -- JSON array; empty = every source type
  municipality_ids TEXT NOT NULL,                -- JSON array of municipality ids
  target_scope     TEXT NOT NULL,
  district         TEXT,
  enabled          INTEGER NOT NULL DEFAULT 1,
  template_id      INTEGER REFERENCES alert_templates (id),
  created_at       TEXT NOT NULL,
  matched_seq      INTEGER NOT NULL DEFAULT 0    -- the last journal entry the matcher checked this rule against
);
CREATE INDEX alert_rules_by_account ON alert_rules (account_id, id);

CREATE TABLE alert_matches (
  id              INTEGER PRIMARY KEY,
  rule_id         INTEGER NOT NULL REFERENCES alert_rules (id),
  account_id      INTEGER NOT NULL REFERENCES accounts (id),  -- the rule's, copied so an account's list is one range
  item_key        TEXT NOT NULL,
  source_type     TEXT NOT NULL,
  municipality_id INTEGER REFERENCES municipalities (id),
  score           REAL,
  title           TEXT,
  snippet         TEXT,
  link            TEXT,
  matched_at      TEXT NOT NULL,
  case_id         INTEGER REFERENCES cases (id),
  judge           TEXT,                          -- JSON AlertJudgeRecord
  status          TEXT NOT NULL DEFAULT 'matched',
  UNIQUE (rule_id, item_key)
);
CREATE INDEX alert_matches_by_account ON alert_matches (account_id, matched_at DESC, id DESC);
CREATE INDEX alert_matches_by_rule ON alert_matches (rule_id, matched_at, id);
CREATE INDEX alert_matches_by_municipality ON alert_matches (account_id, municipality_id, matched_at, id);
CREATE INDEX alert_matches_by_status ON alert_matches (account_id, status, matched_at, id);
`,
  },
  {
    version: 5,
    name: 'contract-municipality-sets',
    // A contract executed in several municipalities is in the per-municipality rollup of each. To count it once
    // when an aggregate sums the rollups of several municipalities, these contracts are also rolled up under
    // their set of municipalities: the aggregate subtracts (k - 1) x the rows of each set that shares k >= 2
    // municipalities with the question. Sets depend on geography more than on volume; the question's sets are
    // found through municipality_set_members. Filled here from the contracts already stored, then kept by writes.
    sql: `
CREATE TABLE municipality_sets (
  id      INTEGER PRIMARY KEY,
  members TEXT NOT NULL UNIQUE                   -- municipality ids ascending, joined by ','
);

CREATE TABLE municipality_set_members (
  municipality_id INTEGER NOT NULL,
  set_id          INTEGER NOT NULL REFERENCES municipality_sets (id),
  PRIMARY KEY (municipality_id, set_id)
) WITHOUT ROWID;

CREATE TABLE contract_set_rollups (
  set_id         INTEGER NOT NULL REFERENCES municipality_sets (id),
  month          TEXT NOT NULL,
  cpv_division   TEXT NOT NULL,
  procedure_type TEXT NOT NULL,
  count          INTEGER NOT NULL,
  total_cents    INTEGER NOT NULL,
  PRIMARY KEY (set_id, month, cpv_division, procedure_type)
) WITHOUT ROWID;

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
`,
  },
  {
    version: 6,
    name: 'company-agents',
    // The company-agent host (src/agents). A deployment keeps its validated file as JSON (`spec`); `revision`
    // moves on every change so that serving processes rebuild their compiled agent. Credentials are stored like
    // API keys (lookup part + SHA-256). Tasks are claimed by one process at a time (worker + lease_until); the
    // partial index finds the claimable ones. A commitment's primary key is its quote: committing twice is one row.
    sql: `
CREATE TABLE agent_deployments (
  id         INTEGER PRIMARY KEY,
  slug       TEXT NOT NULL UNIQUE,
  status     TEXT NOT NULL,                      -- draft, live, paused
  spec       TEXT NOT NULL,                      -- JSON: the deployment file, validated
  revision   INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE agent_credentials (
  id            INTEGER PRIMARY KEY,
  deployment_id INTEGER NOT NULL REFERENCES agent_deployments (id),
  channel       TEXT NOT NULL,                   -- a2a, mcp
  licensed      INTEGER NOT NULL,
  lookup        TEXT NOT NULL UNIQUE,
  hash          TEXT NOT NULL,
  label         TEXT,
  revoked_at    TEXT,
  created_at    TEXT NOT NULL
);
CREATE INDEX agent_credentials_by_deployment ON agent_credentials (deployment_id, id);

CREATE TABLE agent_tasks (
  id            TEXT PRIMARY KEY,
  deployment_id INTEGER NOT NULL REFERENCES agent_deployments (id),
  credential_id INTEGER NOT NULL REFERENCES agent_credentials (id),
  context_id    TEXT NOT NULL,
  skill         TEXT NOT NULL,
  input         TEXT NOT NULL,                   -- JSON
  message       TEXT NOT NULL,                   -- JSON: the caller's message
  state         TEXT NOT NULL,                   -- SUBMITTED, WORKING, COMPLETED, FAILED, REJECTED, CANCELED
  result        TEXT,                            -- JSON {data, text} once COMPLETED
  error         TEXT,                            -- JSON {reason, detail, errors} once FAILED or REJECTED
  worker        TEXT,                            -- the process holding the claim while WORKING
  lease_until   TEXT,                            -- the claim holds until then
  attempts      INTEGER NOT NULL,
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL                    -- the status timestamp
);
CREATE INDEX agent_tasks_by_credential ON agent_tasks (credential_id, updated_at DESC, id DESC);
CREATE INDEX agent_tasks_claimable ON agent_tasks (created_at, id) WHERE state IN ('SUBMITTED', 'WORKING');

CREATE TABLE agent_quotes (
  id            TEXT PRIMARY KEY,
  deployment_id INTEGER NOT NULL REFERENCES agent_deployments (id),
  credential_id INTEGER NOT NULL REFERENCES agent_credentials (id),
  action        TEXT NOT NULL,
  quote         TEXT NOT NULL,                   -- JSON: the quote as the caller got it
  valid_until   TEXT NOT NULL,
  created_at    TEXT NOT NULL
);

CREATE TABLE agent_commitments (
  quote_id     TEXT PRIMARY KEY REFERENCES agent_quotes (id),
  reference    TEXT NOT NULL UNIQUE,
  outcome      TEXT NOT NULL,                    -- JSON: what every commit of the quote answers
  committed_at TEXT NOT NULL
);
`,
  },
  {
    version: 7,
    name: 'journal-backfill',
    // Migration 4 started the change journal empty, so a store upgraded from version 3 or earlier would never
    // detect the records it already held. When the journal is still empty, every stored record gets its entry
    // here, as if it had just been written. (A store created at version 4 or later has its entries already.)
    sql: `
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
  WHERE (SELECT empty FROM temp.journal_was_empty) GROUP BY indicator, municipality_id ORDER BY indicator, municipality_id;

DROP TABLE temp.journal_was_empty;
`,
  },
];
