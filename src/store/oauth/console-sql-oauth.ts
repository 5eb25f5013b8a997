/**
 * The OAuth records' statements (`$n` placeholders) over the SQL handle each store already gives the console's
 * records (`?` placeholders, the subset both dialects share): the values are put in the order their `$n` appear.
 */
import type { ConsoleSql } from '../console/console-sql.js';
import type { OAuthSql } from './oauth-sql-store.js';

export function oauthSqlOver(sql: ConsoleSql): OAuthSql {
  const positional = (text: string, values: readonly unknown[]): [string, unknown[]] => {
    const ordered: unknown[] = [];
    const converted = text.replace(/\$(\d+)/g, (_match, n: string) => {
      ordered.push(values[Number(n) - 1] ?? null);
      return '?';
    });
    return [converted, ordered];
  };
  return {
    query: (text, values = []) => sql.rows(...positional(text, values)),
    async run(text, values = []) {
      await sql.rows(...positional(text, values));
      return 0;
    },
  };
}
