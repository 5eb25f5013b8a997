/**
 * Webhooks (docs/webhooks.md): an account's endpoints and their signing secrets (105), and the outbox of
 * deliveries with the log of every attempt (106); then the acknowledgement of a disabled endpoint's notice (114).
 * A delivery row is written in the same transaction as the match, signal or case change it announces, so a
 * committed change always has its deliveries.
 */
import type { SharedMigration } from '../sql/migration.js';

export const WEBHOOK_ENDPOINTS: SharedMigration = {
  version: 105,
  name: 'webhook-endpoints',
  sql: (t) => `
CREATE TABLE webhook_endpoints (
  id              ${t.id},
  account_id      ${t.ref} NOT NULL REFERENCES accounts (id),
  url             ${t.text} NOT NULL,
  events          ${t.text} NOT NULL,  -- JSON array of event types
  families        ${t.text} NOT NULL,  -- JSON array; empty = every family (signal and case events)
  types           ${t.text} NOT NULL,  -- JSON array; empty = every signal or case type
  enabled         ${t.flag} NOT NULL DEFAULT ${t.true},
  disabled_reason ${t.text},
  failing_since   ${t.key},            -- the first failed attempt since the last success
  created_at      ${t.key} NOT NULL
);
CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints (account_id, id);
-- Signing secrets as issued (whsec_…): they must sign, so they cannot be hashed (docs/webhooks.md, Secrets).
-- expires_at null: the current one; set when rotated out, the old one signs alongside until then.
CREATE TABLE webhook_secrets (
  id          ${t.id},
  endpoint_id ${t.ref} NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  secret      ${t.text} NOT NULL,
  created_at  ${t.key} NOT NULL,
  expires_at  ${t.key}
);
CREATE INDEX webhook_secrets_by_endpoint ON webhook_secrets (endpoint_id, id);
`,
};

export const WEBHOOK_DELIVERIES: SharedMigration = {
  version: 106,
  name: 'webhook-deliveries',
  sql: (t) => `
CREATE TABLE webhook_deliveries (
  id              ${t.id},
  endpoint_id     ${t.ref} NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  message_id      ${t.key} NOT NULL UNIQUE, -- webhook-id: the same on every attempt
  event_type      ${t.text} NOT NULL,
  resource_id     ${t.bigint} NOT NULL,     -- the match, signal or case
  occurred_at     ${t.key} NOT NULL,
  payload         ${t.text},                -- the body, fixed at the first attempt (retries send the same bytes)
  state           ${t.key} NOT NULL DEFAULT 'pending', -- pending, delivered, failed
  attempts        ${t.integer} NOT NULL DEFAULT 0,
  next_attempt_at ${t.key} NOT NULL,
  claimed_until   ${t.key},                 -- a worker holds it until then; a dead worker's claim expires
  claim_token     ${t.text},
  last_status     ${t.integer},
  delivered_at    ${t.key}
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (state, next_attempt_at, id);
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, id);
CREATE TABLE webhook_attempts (
  id            ${t.id},
  delivery_id   ${t.ref} NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempted_at  ${t.key} NOT NULL,
  status        ${t.integer},               -- the HTTP status; null when no answer (refused, timeout, network)
  latency_ms    ${t.integer} NOT NULL,
  error         ${t.text},
  response_head ${t.text}                   -- the answer's first bytes
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, id);
`,
};

/**
 * The account is told in the console when an endpoint was disabled without it (a 410, failing too long, the
 * operator): the notice stands while the endpoint is off and this is null (docs/webhooks.md, Disabled endpoints).
 */
export const WEBHOOK_NOTICES: SharedMigration = {
  version: 114,
  name: 'webhook-disabled-notices',
  sql: (t) => `
ALTER TABLE webhook_endpoints ADD COLUMN notice_acknowledged_at ${t.key};
`,
};
