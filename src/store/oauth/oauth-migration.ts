/**
 * The authorization server's table (docs/oauth.md, Scale-out), written once for both stores
 * (../sql/migration.ts), numbered after the console's (100, 101).
 */
import type { SharedMigration } from '../sql/migration.js';
import { oauthTableDdl } from './oauth-sql-store.js';

export const OAUTH_MIGRATION: SharedMigration = { version: 102, name: 'oauth', sql: (types) => oauthTableDdl(types) };
