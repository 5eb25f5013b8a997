/**
 * The authorization server's table (docs/oauth.md, Scale-out), one migration for both dialects, numbered after
 * the console's (100).
 */
import { oauthTableDdl } from './oauth-sql-store.js';

export function oauthMigration(dialect: 'sqlite' | 'postgres'): { version: number; name: string; sql: string } {
  const types =
    dialect === 'sqlite' ? { key: 'TEXT', text: 'TEXT', bigint: 'INTEGER' } : { key: 'text COLLATE "C"', text: 'text', bigint: 'bigint' };
  return { version: 102, name: 'oauth', sql: oauthTableDdl(types) };
}
