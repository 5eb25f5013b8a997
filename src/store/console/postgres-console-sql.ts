/** The console's SQL on a `pg` pool: `?` numbered as `$n`, a transaction on one checked-out client. */
import type pg from 'pg';
import { inTransaction, type Sql, sqlOn } from '../postgres/db.js';
import { type ConsoleSql, numberedPlaceholders } from './console-sql.js';

export function postgresConsoleSql(pool: pg.Pool): ConsoleSql {
  return over(sqlOn(pool), pool);
}

function over(run: Sql, pool: pg.Pool): ConsoleSql {
  const sql: ConsoleSql = {
    dialect: 'postgres',
    rows: (text, params) => run(numberedPlaceholders(text), params),
    transaction: (work) => inTransaction(pool, (inner) => work(over(inner, pool))),
  };
  return sql;
}
