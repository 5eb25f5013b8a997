/**
 * A rule's Atom feed (docs/alerts.md, "Feeds"): one secret token per rule, kept as its SHA-256 only, so that the
 * store never holds what opens the feed; a new token replaces the old one, and deleting the row revokes it.
 */
import type { SharedMigration } from '../sql/migration.js';

export const ALERT_FEEDS_MIGRATION: SharedMigration = {
  version: 109,
  name: 'alert_feeds',
  sql: (types) => `
CREATE TABLE alert_feeds (
  rule_id ${types.ref} PRIMARY KEY REFERENCES alert_rules (id) ON DELETE CASCADE,
  token_hash ${types.key} NOT NULL UNIQUE,
  created_at ${types.text} NOT NULL
);
`,
};
