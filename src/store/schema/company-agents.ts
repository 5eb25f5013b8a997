/**
 * The company-agent host, src/agents (SQLite version 6, PostgreSQL version 4). A deployment keeps its validated file as
 * JSON (`spec`); `revision` moves on
 * every change so that serving processes rebuild their compiled agent. Credentials are stored like API keys (lookup
 * part + SHA-256). Tasks are claimed by one process at a time (worker + lease_until); the partial index finds the
 * claimable ones. A commitment's primary key is its quote: committing twice is one row.
 */
import type { DdlTypes, SharedMigration } from '../sql/migration.js';

export const companyAgents = (t: DdlTypes): string => `
CREATE TABLE agent_deployments (
  id         ${t.id},
  slug       ${t.key} NOT NULL UNIQUE,
  status     ${t.text} NOT NULL,                 -- draft, live, paused
  spec       ${t.text} NOT NULL,                 -- JSON: the deployment file, validated
  revision   ${t.integer} NOT NULL,
  created_at ${t.text} NOT NULL,
  updated_at ${t.text} NOT NULL
);

CREATE TABLE agent_credentials (
  id            ${t.id},
  deployment_id ${t.ref} NOT NULL REFERENCES agent_deployments (id),
  channel       ${t.text} NOT NULL,              -- a2a, mcp
  licensed      ${t.flag} NOT NULL,
  lookup        ${t.key} NOT NULL UNIQUE,
  hash          ${t.text} NOT NULL,
  label         ${t.text},
  revoked_at    ${t.text},
  created_at    ${t.text} NOT NULL
);
CREATE INDEX agent_credentials_by_deployment ON agent_credentials (deployment_id, id);

CREATE TABLE agent_tasks (
  id            ${t.key} PRIMARY KEY,
  deployment_id ${t.ref} NOT NULL REFERENCES agent_deployments (id),
  credential_id ${t.ref} NOT NULL REFERENCES agent_credentials (id),
  context_id    ${t.text} NOT NULL,
  skill         ${t.text} NOT NULL,
  input         ${t.text} NOT NULL,              -- JSON
  message       ${t.text} NOT NULL,              -- JSON: the caller's message
  state         ${t.text} NOT NULL,              -- SUBMITTED, WORKING, COMPLETED, FAILED, REJECTED, CANCELED
  result        ${t.text},                       -- JSON {data, text} once COMPLETED
  error         ${t.text},                       -- JSON {reason, detail, errors} once FAILED or REJECTED
  worker        ${t.text},                       -- the process holding the claim while WORKING
  lease_until   ${t.key},                        -- the claim holds until then
  attempts      ${t.integer} NOT NULL,
  created_at    ${t.key} NOT NULL,
  updated_at    ${t.key} NOT NULL                -- the status timestamp
);
CREATE INDEX agent_tasks_by_credential ON agent_tasks (credential_id, updated_at DESC, id DESC);
CREATE INDEX agent_tasks_claimable ON agent_tasks (created_at, id) WHERE state IN ('SUBMITTED', 'WORKING');

CREATE TABLE agent_quotes (
  id            ${t.key} PRIMARY KEY,
  deployment_id ${t.ref} NOT NULL REFERENCES agent_deployments (id),
  credential_id ${t.ref} NOT NULL REFERENCES agent_credentials (id),
  action        ${t.text} NOT NULL,
  quote         ${t.text} NOT NULL,              -- JSON: the quote as the caller got it
  valid_until   ${t.text} NOT NULL,
  created_at    ${t.text} NOT NULL
);

CREATE TABLE agent_commitments (
  quote_id     ${t.key} PRIMARY KEY REFERENCES agent_quotes (id),
  reference    ${t.text} NOT NULL UNIQUE,
  outcome      ${t.text} NOT NULL,               -- JSON: what every commit of the quote answers
  committed_at ${t.text} NOT NULL
);
`;

/**
 * The media types a task's caller accepts for its artifact (SendMessage's `acceptedOutputModes`, a JSON list), so
 * that GetTask and ListTasks give the parts the blocking answer would; null (every task before it, or none named):
 * every part.
 */
export const AGENT_TASK_OUTPUT_MODES: SharedMigration = {
  version: 117,
  name: 'agent task output modes',
  sql: ({ text }) => `ALTER TABLE agent_tasks ADD COLUMN accepted_output_modes ${text};\n`,
};
