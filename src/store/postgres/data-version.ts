/** The data version (see Store.dataVersion), bumped inside the transaction of every write that changes served data. */
import type { Sql } from './db.js';

export async function bumpDataVersion(sql: Sql): Promise<void> {
  await sql("UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'data_version'");
}
