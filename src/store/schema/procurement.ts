/**
 * Public procurement (SQLite version 2, PostgreSQL version 2 with the process index): CPVs, entities, contracts,
 * announcements, amendments and the contract rollups.
 *
 * Conventions: a date the source did not give is '' where the column orders a keyset list (published_on,
 * amendment date), so that every position is a plain comparable string; NULL elsewhere. Child tables copy the
 * parent's ordering date so that a filter (municipality, party) and the order are one index range. Lists walk these
 * indexes in order and stop after a page: no OFFSET, no sort of the whole result. Folded text columns
 * (search_text, name_key) are written by the store, so matching is the same code on both databases.
 */
import type { DdlTypes, SharedMigration } from '../sql/migration.js';

export const procurement = (t: DdlTypes): string => `
${t.search.setup}

CREATE TABLE cpvs (
  code     ${t.key} PRIMARY KEY,                 -- 8 digits, without the check digit
  division ${t.key} NOT NULL,                    -- first 2 digits
  label_pt ${t.text},
  label_en ${t.text}
)${t.clustered};

CREATE TABLE entities (
  ${t.search.naturalKey('nif', t.key)},
  name                  ${t.text} NOT NULL,
  kind                  ${t.key} NOT NULL,       -- municipality, public_body, company, person
  country               ${t.text},
  municipality_id       ${t.ref} REFERENCES municipalities (id),
  name_key              ${t.key} NOT NULL,       -- folded name, punctuation as spaces (lookups)
  search_text           ${t.text} NOT NULL,      -- folded name and tax number (q)
  -- Maintained by refreshProcurementRollups from contract_parties:
  contracts_as_buyer    ${t.integer} NOT NULL DEFAULT 0,
  contracts_as_supplier ${t.integer} NOT NULL DEFAULT 0,
  total_as_buyer_eur    ${t.real} NOT NULL DEFAULT 0,
  total_as_supplier_eur ${t.real} NOT NULL DEFAULT 0
);
CREATE INDEX entities_by_kind ON entities (kind, nif);
CREATE INDEX entities_by_municipality ON entities (municipality_id);
CREATE INDEX entities_by_name ON entities (name_key);
${t.search.index('entities')}
${t.search.entityNames}

-- Entities whose totals are stale: written by writeProcurement, emptied by refreshProcurementRollups.
CREATE TABLE entity_rollup_queue (
  nif ${t.key} PRIMARY KEY
)${t.clustered};

CREATE TABLE contracts (
  id                    ${t.id},
  source                ${t.key} NOT NULL,
  source_id             ${t.key} NOT NULL,
  fingerprint           ${t.text} NOT NULL,      -- hash of the written input: an equal one means unchanged
  procedure_id          ${t.key},
  announcement_number   ${t.key},
  object                ${t.text} NOT NULL,
  description           ${t.text},
  procedure_type        ${t.key},
  procedure_key         ${t.key},                -- folded procedure_type (its filter)
  ocds_method           ${t.text},
  contract_types        ${t.list} NOT NULL,      -- JSON array
  cpv_main              ${t.key},
  cpv_division          ${t.key},
  base_price_eur        ${t.real},
  price_eur             ${t.real},
  effective_price_eur   ${t.real},
  published_on          ${t.key} NOT NULL,       -- '' when unknown
  awarded_on            ${t.text},
  signed_on             ${t.text},
  closed_on             ${t.text},
  execution_days        ${t.integer},
  execution_places_text ${t.text},
  framework_agreement   ${t.text},
  legal_basis           ${t.text},
  green                 ${t.flag},
  centralized           ${t.flag},
  link                  ${t.text},
  search_text           ${t.text} NOT NULL,      -- folded object and description (q)
  imported_at           ${t.text} NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX contracts_by_date ON contracts (published_on DESC, id DESC);
-- CPV prefix filters walk one division in date order; cpv_main in the index checks longer prefixes there.
CREATE INDEX contracts_by_cpv ON contracts (cpv_division, published_on, id, cpv_main);
CREATE INDEX contracts_by_price ON contracts (price_eur);
CREATE INDEX contracts_by_procedure ON contracts (procedure_key, published_on, id);
${t.search.index('contracts')}

CREATE TABLE contract_cpvs (
  contract_id ${t.ref} NOT NULL REFERENCES contracts (id),
  position    ${t.integer} NOT NULL,             -- 0 is the main CPV
  cpv         ${t.key} NOT NULL,
  PRIMARY KEY (contract_id, position)
)${t.clustered};

CREATE TABLE contract_parties (
  contract_id  ${t.ref} NOT NULL REFERENCES contracts (id),
  role         ${t.key} NOT NULL,                -- buyer, supplier, competitor
  position     ${t.integer} NOT NULL,
  nif          ${t.key} REFERENCES entities (nif), -- NULL when the source gives no tax number
  name         ${t.text} NOT NULL,               -- as published on this contract
  published_on ${t.key} NOT NULL,                -- copies of the contract's, for keyset scans and sums
  price_eur    ${t.real},
  PRIMARY KEY (contract_id, role, position)
)${t.clustered};
CREATE INDEX contract_parties_by_nif
  ON contract_parties ${t.covering('nif, role, published_on, contract_id', 'price_eur')};

CREATE TABLE contract_municipalities (
  contract_id     ${t.ref} NOT NULL REFERENCES contracts (id),
  municipality_id ${t.ref} NOT NULL REFERENCES municipalities (id),
  published_on    ${t.key} NOT NULL,
  PRIMARY KEY (contract_id, municipality_id)
)${t.clustered};
CREATE INDEX contract_municipalities_by_municipality
  ON contract_municipalities (municipality_id, published_on, contract_id);

-- Contract counts and euros per month, CPV division and procedure type, kept exact by every write (integer
-- cents, so that adding and removing a contract cancel out). scope 0 holds each contract once; scope > 0 once
-- per municipality it is executed in; scope -1 the contracts executed in none. '' stands for unknown.
CREATE TABLE contract_rollups (
  scope          ${t.integer} NOT NULL,
  month          ${t.key} NOT NULL,
  cpv_division   ${t.key} NOT NULL,
  procedure_type ${t.key} NOT NULL,
  count          ${t.bigint} NOT NULL,
  total_cents    ${t.bigint} NOT NULL,
  PRIMARY KEY (scope, month, cpv_division, procedure_type)
)${t.clustered};

-- The same per scope and month only: what groupings by year, month or municipality (and every total) read.
CREATE TABLE contract_month_rollups (
  scope       ${t.integer} NOT NULL,
  month       ${t.key} NOT NULL,
  count       ${t.bigint} NOT NULL,
  total_cents ${t.bigint} NOT NULL,
  PRIMARY KEY (scope, month)
)${t.clustered};

CREATE TABLE announcements (
  id             ${t.id},
  source         ${t.key} NOT NULL,
  source_id      ${t.key} NOT NULL,
  fingerprint    ${t.text} NOT NULL,
  published_on   ${t.key} NOT NULL,              -- '' when unknown
  deadline_on    ${t.key},
  buyer_nif      ${t.key} REFERENCES entities (nif),
  buyer_name     ${t.text} NOT NULL,
  object         ${t.text} NOT NULL,
  base_price_eur ${t.real},
  contract_types ${t.list} NOT NULL,             -- JSON array
  procedure_type ${t.text},
  district       ${t.text},
  link           ${t.text},
  search_text    ${t.text} NOT NULL,
  imported_at    ${t.text} NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX announcements_by_date ON announcements (published_on DESC, id DESC);
CREATE INDEX announcements_by_deadline ON announcements (deadline_on, id);
${t.search.index('announcements')}

CREATE TABLE announcement_cpvs (
  announcement_id ${t.ref} NOT NULL REFERENCES announcements (id),
  position        ${t.integer} NOT NULL,
  cpv             ${t.key} NOT NULL,
  PRIMARY KEY (announcement_id, position)
)${t.clustered};

CREATE TABLE announcement_municipalities (
  announcement_id ${t.ref} NOT NULL REFERENCES announcements (id),
  municipality_id ${t.ref} NOT NULL REFERENCES municipalities (id),
  published_on    ${t.key} NOT NULL,
  deadline_on     ${t.key},
  PRIMARY KEY (announcement_id, municipality_id)
)${t.clustered};
CREATE INDEX announcement_municipalities_by_date
  ON announcement_municipalities (municipality_id, published_on, announcement_id);
CREATE INDEX announcement_municipalities_by_deadline
  ON announcement_municipalities (municipality_id, deadline_on, announcement_id);

-- The districts an announcement is in: the one it names and those of its municipalities (folded names).
CREATE TABLE announcement_districts (
  announcement_id ${t.ref} NOT NULL REFERENCES announcements (id),
  district_key    ${t.key} NOT NULL,
  published_on    ${t.key} NOT NULL,
  deadline_on     ${t.key},
  PRIMARY KEY (announcement_id, district_key)
)${t.clustered};
CREATE INDEX announcement_districts_by_date ON announcement_districts (district_key, published_on, announcement_id);
CREATE INDEX announcement_districts_by_deadline ON announcement_districts (district_key, deadline_on, announcement_id);

CREATE TABLE amendments (
  id                 ${t.id},
  source             ${t.key} NOT NULL,
  source_id          ${t.key} NOT NULL,
  contract_id        ${t.ref} NOT NULL REFERENCES contracts (id),
  fingerprint        ${t.text} NOT NULL,
  date               ${t.key} NOT NULL,          -- '' when unknown
  previous_price_eur ${t.real},                  -- as given; NULL is derived when read
  new_price_eur      ${t.real},
  reason             ${t.text},
  link               ${t.text},
  imported_at        ${t.text} NOT NULL,
  UNIQUE (source, source_id)
);
CREATE INDEX amendments_by_contract ON amendments (contract_id, date, id);
CREATE INDEX amendments_by_date ON amendments (date DESC, id DESC);
`;

/** The OCDS record of a contracting process gathers the contracts that share its procedure id (SQLite version 3). */
export const PROCESS_INDEX = 'CREATE INDEX contracts_by_procedure_id ON contracts (source, procedure_id);';

/**
 * Version 103: contract_rollups' primary key carries the sums, so that the aggregate reads a scope's rows from the
 * key alone. In PostgreSQL a scope's rows lie on pages spread over the whole table (the scope-0 rows of 100 000
 * contracts on 1,550 of its 1,558 pages), so reading them from the table cost as many pages as the table has, which
 * grows faster than the rows do (docs/performance-history.md, "2026-11-28: the PostgreSQL national aggregate").
 */
export const ROLLUP_SUMS_IN_KEY: SharedMigration = {
  version: 103,
  name: 'contract-rollup-sums-in-key',
  sql: (t) =>
    t.carryInPrimaryKey('contract_rollups', 'scope, month, cpv_division, procedure_type', 'count, total_cents'),
};

/**
 * Version 104: a contract by the notice it gives (its source and notice number). Detection judges again the
 * contracts of a changed notice, or of the notices whose comparable group's fence moved (docs/integrity.md,
 * "Signals"): without it each such read scanned every contract.
 */
export const CONTRACTS_BY_NOTICE: SharedMigration = {
  version: 104,
  name: 'contracts-by-notice',
  sql: () =>
    'CREATE INDEX contracts_by_notice ON contracts (source, announcement_number) ' +
    'WHERE announcement_number IS NOT NULL;',
};

/**
 * Version 118: a buyer's row of contract_parties carries its contract's source and sole supplier (the tax number of
 * its one supplier; null for none, several, or one without a number), and an index of the buyers' rows holds a buyer's
 * year whole: supplier concentration reads a buyer's year of a source from it alone (Store.buyerPrices). Read through
 * the contract and a subquery per row, a year of 900 contracts at a million took 6.2 ms; from the index, 0.7 ms
 * (docs/performance.md, "Red flags at a million"). The other roles' rows leave both null.
 */
export const BUYER_YEARS: SharedMigration = {
  version: 118,
  name: 'buyer-years',
  sql: (t) => `
ALTER TABLE contract_parties ADD COLUMN source ${t.key};
ALTER TABLE contract_parties ADD COLUMN sole_supplier ${t.key};
UPDATE contract_parties
   SET source = (SELECT c.source FROM contracts c WHERE c.id = contract_parties.contract_id),
       sole_supplier = (SELECT CASE WHEN count(*) = 1 THEN max(x.nif) END FROM contract_parties x
                         WHERE x.contract_id = contract_parties.contract_id AND x.role = 'supplier')
 WHERE role = 'buyer';
CREATE INDEX contract_parties_buyer_years
  ON contract_parties ${t.covering('nif, source, published_on, contract_id', 'price_eur, sole_supplier')}
  WHERE role = 'buyer';
`,
};

/**
 * Version 119: the corpus statistics' rows kept for the procurement version they were read at (Store.
 * keptCorpusStatistic), so that a process started afresh answers its first red flags without the GROUP BYs over
 * every contract (5–8 s at a million) when no procurement record moved since another process read them
 * (docs/integrity.md, "Kept current"). One row per statistic, replaced when a newer version is read.
 */
export const CORPUS_STATISTICS: SharedMigration = {
  version: 119,
  name: 'corpus-statistics',
  sql: (t) => `
CREATE TABLE corpus_statistics (
  key                  ${t.key} PRIMARY KEY,
  procurement_version  ${t.bigint} NOT NULL,
  value                ${t.text} NOT NULL
);
`,
};
