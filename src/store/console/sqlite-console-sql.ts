/** The console's SQL on better-sqlite3: statements prepared once, a transaction as BEGIN … COMMIT on the one connection. */
import type Database from 'better-sqlite3';
import type { ConsoleSql, SqlRow } from './console-sql.js';

export function sqliteConsoleSql(db: Database.Database): ConsoleSql {
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const sql: ConsoleSql = {
    dialect: 'sqlite',
    async rows(text, params = []) {
      const statement = prepared(text);
      if (statement.reader) return statement.all(...params) as SqlRow[];
      statement.run(...params);
      return [];
    },
    async transaction(work) {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(sql);
        db.exec('COMMIT');
        return result;
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        throw error;
      }
    },
  };
  return sql;
}
