/**
 * Signals and alerts (SQLite version 4, PostgreSQL version 3): the change journal that detectors and the alert
 * matcher consume, signals, their cases, alert rules and matches. Lists are keyset walks of one index in list order
 * (last_seen_at / matched_at descending, then id), as for procurement; a filter with several values
 * (municipalities, types) is one range per value, merged. Instants are RFC 3339 strings, compared as text: writers
 * give them in one format. Cases list only once computed, so their list indexes are partial (WHERE computed), and
 * those that hide episodic cases (a single signal) hold only the others (AND source_count > 1).
 */
import type { DdlTypes } from '../sql/migration.js';

export const signalsAlerts = (t: DdlTypes): string => `
CREATE TABLE changes (
  seq        ${t.sequence},                      -- never reused: consumers keep the last one they processed
  kind       ${t.text} NOT NULL,                 -- contract, announcement, amendment, observation, signal
  record_id  ${t.integer} NOT NULL,              -- the record's id; for observation the municipality id
  record_key ${t.text},                          -- for observation the indicator key
  item_date  ${t.text}                           -- the record's own date, NULL when unknown
);

CREATE TABLE watermarks (
  name  ${t.key} PRIMARY KEY,
  value ${t.text} NOT NULL
)${t.clustered};

CREATE TABLE signals (
  id                ${t.id},
  key               ${t.key} NOT NULL UNIQUE,
  origin            ${t.text} NOT NULL,
  fingerprint       ${t.text} NOT NULL,          -- hash of the fields and the case reference: equal means unchanged
  type              ${t.key} NOT NULL,
  family            ${t.key} NOT NULL,
  municipality_id   ${t.ref} REFERENCES municipalities (id),
  title_pt          ${t.text},
  title_en          ${t.text},
  summary_pt        ${t.text},
  summary_en        ${t.text},
  why_it_matters_pt ${t.text},
  why_it_matters_en ${t.text},
  next_step_pt      ${t.text},
  stage             ${t.text},
  status            ${t.text} NOT NULL,
  value_tier        ${t.text},
  confidence        ${t.real} NOT NULL,
  deadline_date     ${t.text},
  event_date        ${t.text},
  amount_eur        ${t.real},
  location_text     ${t.text},
  actionability     ${t.text},
  evidence          ${t.text} NOT NULL,          -- JSON array of evidence items
  subject           ${t.text} NOT NULL,          -- JSON: what rules match on besides the served fields
  first_seen_at     ${t.key} NOT NULL,
  last_seen_at      ${t.key} NOT NULL
);
CREATE INDEX signals_by_seen ON signals (last_seen_at DESC, id DESC);
CREATE INDEX signals_by_municipality ON signals (municipality_id, last_seen_at, id);
CREATE INDEX signals_by_type ON signals (type, last_seen_at, id);
CREATE INDEX signals_by_family ON signals (family, last_seen_at, id);

CREATE TABLE cases (
  id              ${t.id},
  key             ${t.key} NOT NULL UNIQUE,
  type            ${t.key} NOT NULL,
  family          ${t.key} NOT NULL,
  computed        ${t.flag} NOT NULL DEFAULT ${t.false}, -- 0 until saveCases first writes its fields
  pending         ${t.bigint},                   -- NULL, or the journal seq of the signal change that marked it
  municipality_id ${t.ref} REFERENCES municipalities (id),
  title_pt        ${t.text},
  summary_pt      ${t.text},
  current_stage   ${t.text},
  previous_stage  ${t.text},
  status          ${t.text},
  value_tier      ${t.text},
  confidence      ${t.real},
  source_count    ${t.integer} NOT NULL DEFAULT 0,
  deadline_date   ${t.text},
  amount_eur      ${t.real},
  location_text   ${t.text},
  event_date      ${t.text},
  first_seen_at   ${t.text},
  last_seen_at    ${t.key} NOT NULL DEFAULT ''   -- '' when unknown (orders the list)
);
CREATE INDEX cases_pending ON cases (id) WHERE pending IS NOT NULL;
CREATE INDEX cases_by_seen ON cases (last_seen_at DESC, id DESC) WHERE ${t.isTrue('computed')};
CREATE INDEX cases_by_municipality ON cases (municipality_id, last_seen_at, id) WHERE ${t.isTrue('computed')};
CREATE INDEX cases_by_family ON cases (family, last_seen_at, id) WHERE ${t.isTrue('computed')};
CREATE INDEX cases_linked_by_seen ON cases (last_seen_at DESC, id DESC)
  WHERE ${t.isTrue('computed')} AND source_count > 1;
CREATE INDEX cases_linked_by_municipality ON cases (municipality_id, last_seen_at, id)
  WHERE ${t.isTrue('computed')} AND source_count > 1;
CREATE INDEX cases_linked_by_family ON cases (family, last_seen_at, id)
  WHERE ${t.isTrue('computed')} AND source_count > 1;

CREATE TABLE case_events (
  id         ${t.id},                            -- append-only: the history is never rewritten
  case_id    ${t.ref} NOT NULL REFERENCES cases (id),
  event_type ${t.text} NOT NULL,
  old_value  ${t.text},
  new_value  ${t.text},
  reason     ${t.text},
  created_at ${t.text} NOT NULL
);
CREATE INDEX case_events_by_case ON case_events (case_id, id);

CREATE TABLE case_links (
  signal_id    ${t.ref} PRIMARY KEY REFERENCES signals (id),
  case_id      ${t.ref} NOT NULL REFERENCES cases (id),
  relationship ${t.text} NOT NULL
);
CREATE INDEX case_links_by_case ON case_links (case_id, signal_id);

CREATE TABLE alert_templates (
  id           ${t.id},
  key          ${t.key} NOT NULL UNIQUE,
  name         ${t.text} NOT NULL,
  description  ${t.text} NOT NULL,
  matcher_type ${t.text} NOT NULL,
  params       ${t.text} NOT NULL,               -- JSON MatcherParams
  source_types ${t.text} NOT NULL,               -- JSON array
  target_scope ${t.text} NOT NULL
);

CREATE TABLE alert_rules (
  id               ${t.id},
  account_id       ${t.ref} NOT NULL REFERENCES accounts (id),
  name             ${t.text} NOT NULL,
  matcher_type     ${t.text} NOT NULL,
  params           ${t.text} NOT NULL,           -- JSON MatcherParams
  source_types     ${t.text} NOT NULL,           -- JSON array; empty = every source type
  municipality_ids ${t.text} NOT NULL,           -- JSON array of municipality ids
  target_scope     ${t.text} NOT NULL,
  district         ${t.text},
  enabled          ${t.flag} NOT NULL DEFAULT ${t.true},
  template_id      ${t.ref} REFERENCES alert_templates (id),
  created_at       ${t.text} NOT NULL,
  matched_seq      ${t.bigint} NOT NULL DEFAULT 0 -- the last journal entry the matcher checked this rule against
);
CREATE INDEX alert_rules_by_account ON alert_rules (account_id, id);

CREATE TABLE alert_matches (
  id              ${t.id},
  rule_id         ${t.ref} NOT NULL REFERENCES alert_rules (id),
  account_id      ${t.ref} NOT NULL REFERENCES accounts (id), -- the rule's, copied so an account's list is one range
  item_key        ${t.key} NOT NULL,
  source_type     ${t.text} NOT NULL,
  municipality_id ${t.ref} REFERENCES municipalities (id),
  score           ${t.real},
  title           ${t.text},
  snippet         ${t.text},
  link            ${t.text},
  matched_at      ${t.key} NOT NULL,
  case_id         ${t.ref} REFERENCES cases (id),
  judge           ${t.text},                     -- JSON AlertJudgeRecord
  status          ${t.key} NOT NULL DEFAULT 'matched',
  UNIQUE (rule_id, item_key)
);
CREATE INDEX alert_matches_by_account ON alert_matches (account_id, matched_at DESC, id DESC);
CREATE INDEX alert_matches_by_rule ON alert_matches (rule_id, matched_at, id);
CREATE INDEX alert_matches_by_municipality ON alert_matches (account_id, municipality_id, matched_at, id);
CREATE INDEX alert_matches_by_status ON alert_matches (account_id, status, matched_at, id);
`;
