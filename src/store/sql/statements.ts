/** The statement shapes written from a list of columns, so that each list is named once. */

/** `INSERT INTO table (a, b) VALUES ($1, $2)`: the columns bound in their order. */
export function insertInto(table: string, columns: readonly string[]): string {
  return `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`;
}

/** `a = excluded.a, b = excluded.b`: an upsert's update of these columns to the values it was given. */
export function setExcluded(columns: readonly string[]): string {
  return columns.map((c) => `${c} = excluded.${c}`).join(', ');
}

/** `t.a, t.b`: the columns of the table under `alias`, for a select list. */
export function qualified(alias: string, columns: readonly string[]): string {
  return columns.map((c) => `${alias}.${c}`).join(', ');
}
