/**
 * The SQLite schema, as numbered migrations applied in order and recorded in `schema_migrations`.
 * A migration, once released, is never edited: a change is a new entry.
 */
export const SQLITE_MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
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
];
