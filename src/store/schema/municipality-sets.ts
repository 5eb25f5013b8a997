/**
 * Contracts in several municipalities (SQLite and PostgreSQL version 5). Such a contract is in the per-municipality
 * rollup of each; to count it once when an aggregate sums the rollups of several municipalities, it is also rolled up
 * under its set of municipalities: the aggregate subtracts (k - 1) x the rows of each set that shares k >= 2
 * municipalities with the question. Sets depend on geography more than on volume; the question's sets are found
 * through municipality_set_members. Each dialect's migration 5 fills them from the contracts already stored; writes
 * keep them.
 */
import type { DdlTypes } from '../sql/migration.js';

export const municipalitySets = (t: DdlTypes): string => `
CREATE TABLE municipality_sets (
  id      ${t.id},
  members ${t.key} NOT NULL UNIQUE               -- municipality ids ascending, joined by ','
);

CREATE TABLE municipality_set_members (
  municipality_id ${t.integer} NOT NULL,
  set_id          ${t.ref} NOT NULL REFERENCES municipality_sets (id),
  PRIMARY KEY (municipality_id, set_id)
)${t.clustered};

CREATE TABLE contract_set_rollups (
  set_id         ${t.ref} NOT NULL REFERENCES municipality_sets (id),
  month          ${t.key} NOT NULL,
  cpv_division   ${t.key} NOT NULL,
  procedure_type ${t.key} NOT NULL,
  count          ${t.bigint} NOT NULL,
  total_cents    ${t.bigint} NOT NULL,
  PRIMARY KEY (set_id, month, cpv_division, procedure_type)
)${t.clustered};
`;
