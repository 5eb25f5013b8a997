/**
 * The foundation (SQLite and PostgreSQL version 1): plans, accounts, API keys and usage; the municipalities, the
 * indicator catalogue and the observations.
 */
import type { DdlTypes } from '../sql/migration.js';

export const foundation = (t: DdlTypes): string => `
CREATE TABLE meta (
  key   ${t.key} PRIMARY KEY,
  value ${t.text} NOT NULL
);

CREATE TABLE plans (
  code                ${t.key} PRIMARY KEY,
  name                ${t.text} NOT NULL,
  api_access          ${t.flag} NOT NULL,
  domains             ${t.list} NOT NULL,        -- JSON array of domain names
  raw_values          ${t.flag} NOT NULL,
  judge               ${t.flag} NOT NULL,
  requests_per_minute ${t.bigint},
  requests_per_month  ${t.bigint},
  history_years       ${t.integer},
  alerts_history_days ${t.integer}
);

CREATE TABLE accounts (
  id         ${t.id},
  name       ${t.text} NOT NULL,
  plan_code  ${t.key} NOT NULL REFERENCES plans (code),
  beta       ${t.flag} NOT NULL DEFAULT ${t.false},
  created_at ${t.text} NOT NULL
);

CREATE TABLE api_keys (
  id         ${t.id},
  account_id ${t.ref} NOT NULL REFERENCES accounts (id),
  lookup     ${t.key} NOT NULL UNIQUE,
  hash       ${t.text} NOT NULL,
  label      ${t.text},
  scopes     ${t.list} NOT NULL,                 -- JSON array of scopes
  expires_at ${t.text},
  revoked_at ${t.text},
  created_at ${t.text} NOT NULL
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE beta_gates (
  target ${t.key} PRIMARY KEY                    -- an operation name or a domain
);

CREATE TABLE usage (
  account_id ${t.ref} NOT NULL REFERENCES accounts (id),
  period     ${t.key} NOT NULL,                  -- YYYY-MM (UTC)
  count      ${t.bigint} NOT NULL,
  PRIMARY KEY (account_id, period)
)${t.clustered};

CREATE TABLE municipalities (
  id              ${t.integer} PRIMARY KEY,
  code            ${t.key} NOT NULL UNIQUE,
  slug            ${t.key} NOT NULL UNIQUE,
  name            ${t.text} NOT NULL,
  district        ${t.text} NOT NULL,
  nuts_ii         ${t.text} NOT NULL,
  nuts_iii        ${t.text} NOT NULL,
  nuts_iii_code   ${t.text} NOT NULL,
  island          ${t.text},
  population_2021 ${t.integer} NOT NULL,
  area_km2        ${t.real} NOT NULL,
  nif             ${t.key} NOT NULL
);

CREATE TABLE indicators (
  key              ${t.key} PRIMARY KEY,
  name             ${t.text} NOT NULL,
  name_pt          ${t.text} NOT NULL,
  category         ${t.text} NOT NULL,
  unit             ${t.text} NOT NULL,
  unit_display     ${t.text},
  direction        ${t.text} NOT NULL,
  source           ${t.text},
  country_code     ${t.text} NOT NULL,
  value_domain     ${t.text} NOT NULL,
  treatment        ${t.text} NOT NULL,
  summary          ${t.text},
  summary_pt       ${t.text},
  currency_code    ${t.text},
  scale_factor     ${t.real} NOT NULL DEFAULT 1.0,
  per_capita       ${t.flag} NOT NULL DEFAULT ${t.false},
  unit_description ${t.text},
  frequency        ${t.text} NOT NULL
);

CREATE TABLE observations (
  indicator       ${t.key} NOT NULL REFERENCES indicators (key),
  municipality_id ${t.ref} NOT NULL REFERENCES municipalities (id),
  reference_date  ${t.key} NOT NULL,
  value           ${t.real},
  value_norm      ${t.real},
  treatment       ${t.text} NOT NULL,
  PRIMARY KEY (indicator, municipality_id, reference_date)
)${t.clustered};
CREATE INDEX observations_by_municipality ON observations (municipality_id, indicator, reference_date);
`;
