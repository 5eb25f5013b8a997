/**
 * The console's tables (docs/console.md), written once for both stores (../sql/migration.ts): the SQL is the same
 * but for the identity column.
 */
import type { SharedMigration } from '../sql/migration.js';

export const CONSOLE_MIGRATION: SharedMigration = {
  version: 100,
  name: 'console',
  sql: ({ id }) => `
CREATE TABLE console_users (
  id            ${id},
  account_id    INTEGER NOT NULL REFERENCES accounts (id),
  email         TEXT NOT NULL UNIQUE,
  display_name  TEXT NOT NULL,
  role          TEXT NOT NULL,
  password_hash TEXT,
  created_at    TEXT NOT NULL,
  disabled_at   TEXT
);
CREATE INDEX console_users_account ON console_users (account_id);

CREATE TABLE console_links (
  hash       TEXT PRIMARY KEY,
  user_id    INTEGER NOT NULL REFERENCES console_users (id),
  purpose    TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at    TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE console_sessions (
  id           TEXT PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES console_users (id),
  created_at   TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  expires_at   TEXT NOT NULL,
  ended_at     TEXT,
  user_agent   TEXT,
  address      TEXT
);
CREATE INDEX console_sessions_user ON console_sessions (user_id);

CREATE TABLE console_sign_in_failures (
  id      ${id},
  subject TEXT NOT NULL,
  at      TEXT NOT NULL
);
CREATE INDEX console_sign_in_failures_subject ON console_sign_in_failures (subject, at);

CREATE TABLE console_deployment_owners (
  deployment_id INTEGER PRIMARY KEY REFERENCES agent_deployments (id),
  account_id    INTEGER NOT NULL REFERENCES accounts (id)
);

CREATE TABLE console_licences (
  id               ${id},
  deployment_id    INTEGER NOT NULL REFERENCES agent_deployments (id),
  buyer_account_id INTEGER NOT NULL REFERENCES accounts (id),
  credential_id    INTEGER NOT NULL,
  created_at       TEXT NOT NULL,
  revoked_at       TEXT
);
CREATE INDEX console_licences_deployment ON console_licences (deployment_id);
CREATE INDEX console_licences_buyer ON console_licences (buyer_account_id);

CREATE TABLE console_usage_days (
  account_id INTEGER NOT NULL REFERENCES accounts (id),
  day        TEXT NOT NULL,
  channel    TEXT NOT NULL,
  count      INTEGER NOT NULL,
  PRIMARY KEY (account_id, day, channel)
);
`,
};

/** When each API key was last used (written in batches, docs/console.md). */
export const CONSOLE_KEY_USE_MIGRATION: SharedMigration = {
  version: 101,
  name: 'console key use',
  sql: ({ ref, text }) => `
CREATE TABLE console_key_use (
  key_id       ${ref} PRIMARY KEY REFERENCES api_keys (id),
  last_used_at ${text} NOT NULL
);
`,
};

/**
 * The one-use tokens of the console's forms that show a secret once (docs/console.md, "Forms sent once"): a token
 * is written when its form is first sent, so the same form sent again (a reload of the answer) creates nothing.
 */
export const CONSOLE_FORM_USES_MIGRATION: SharedMigration = {
  version: 116,
  name: 'console form uses',
  sql: ({ key, text, clustered }) => `
CREATE TABLE console_form_uses (
  token   ${key} NOT NULL PRIMARY KEY,
  used_at ${text} NOT NULL
)${clustered};
CREATE INDEX console_form_uses_used_at ON console_form_uses (used_at);
`,
};
