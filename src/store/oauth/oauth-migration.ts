/**
 * The authorization server's table (docs/oauth.md, Scale-out), written once for both stores
 * (../sql/migration.ts), numbered after the console's (100, 101): `key` sorts bytewise, `bigint` holds milliseconds.
 */
import type { SharedMigration } from '../sql/migration.js';

export const OAUTH_MIGRATION: SharedMigration = {
  version: 102,
  name: 'oauth',
  sql: (types) => `
CREATE TABLE oauth_records (
  model ${types.key} NOT NULL,
  id ${types.key} NOT NULL,
  payload ${types.text} NOT NULL,
  grant_id ${types.key},
  uid ${types.key},
  account_id ${types.key},
  expires_at ${types.bigint},
  consumed ${types.bigint} NOT NULL DEFAULT 0,
  first_used_at ${types.bigint},
  last_used_at ${types.bigint},
  PRIMARY KEY (model, id)
);
CREATE INDEX oauth_records_grant ON oauth_records (grant_id);
CREATE INDEX oauth_records_uid ON oauth_records (model, uid);
CREATE INDEX oauth_records_account ON oauth_records (model, account_id);
CREATE INDEX oauth_records_expiry ON oauth_records (expires_at);
`,
};
