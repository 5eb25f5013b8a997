/**
 * The schema a store's migrations made, as text a reviewer can read in a diff: every table with its columns,
 * constraints and options, every index (with its predicate), every virtual table, extension and trigger, sorted
 * by name. Read from the database's own catalogue (not from the migrations' text), so that two migrations written
 * differently but making the same schema dump alike, and any change of the schema shows.
 */
import type { SqlPort } from '../../src/store/sql/port.js';

export async function dumpSchema(port: SqlPort): Promise<string> {
  return port.dialect.name === 'sqlite' ? dumpSqlite(port) : dumpPostgres(port);
}

/** SQL text as the catalogue keeps it, without comments and with one space wherever there was white space. */
function normalized(sql: string): string {
  return sql
    .replace(/--[^\n]*/g, '')
    .replace(/\s+/g, ' ')
    .replace(/\( /g, '(')
    .replace(/ \)/g, ')')
    .trim();
}

async function dumpSqlite(port: SqlPort): Promise<string> {
  const lines: string[] = [];
  const objects = await port.query(
    'SELECT type, name, tbl_name, sql FROM sqlite_master ' +
      "WHERE (name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_autoindex_%') AND tbl_name <> 'schema_migrations' " +
      'ORDER BY name',
  );
  const tables = new Map((await port.query('PRAGMA table_list')).map((t) => [String(t.name), t]));
  for (const object of objects) {
    const name = String(object.name);
    const sql = object.sql === null ? '' : normalized(String(object.sql));
    if (object.type === 'table' && !sql.startsWith('CREATE VIRTUAL')) {
      const shadow = tables.get(name)?.type === 'shadow';
      lines.push(`table ${name}${tables.get(name)?.wr ? ' WITHOUT ROWID' : ''}${shadow ? ' (shadow)' : ''}`);
      for (const c of await port.query(`PRAGMA table_xinfo(${JSON.stringify(name)})`)) {
        const parts = [
          c.name,
          c.type,
          c.notnull ? 'NOT NULL' : '',
          c.dflt_value === null ? '' : `DEFAULT ${c.dflt_value}`,
        ];
        if (Number(c.pk) > 0) parts.push(`PK${c.pk}`);
        lines.push(`  ${parts.filter((p) => p !== '').join(' ')}`);
      }
      for (const f of await port.query(`PRAGMA foreign_key_list(${JSON.stringify(name)})`)) {
        lines.push(`  FK ${f.from} → ${f.table} (${f.to ?? ''})`);
      }
      if (/AUTOINCREMENT/i.test(sql)) lines.push('  AUTOINCREMENT');
    } else if (object.type === 'index' && object.sql === null) {
      const columns = (await port.query(`PRAGMA index_info(${JSON.stringify(name)})`)).map((c) => c.name).join(', ');
      lines.push(`unique ${object.tbl_name} (${columns})`); // a UNIQUE or PRIMARY KEY constraint's own index
    } else {
      lines.push(`${object.type} ${name}: ${sql}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

async function dumpPostgres(port: SqlPort): Promise<string> {
  const lines: string[] = [];
  for (const e of await port.query("SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY extname")) {
    lines.push(`extension ${e.extname}`);
  }
  const tables = await port.query(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' " +
      'ORDER BY tablename COLLATE "C"',
  );
  for (const { tablename } of tables) {
    lines.push(`table ${tablename}`);
    const columns = await port.query(
      `SELECT column_name, data_type, udt_name, is_nullable, column_default, collation_name, identity_generation
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 ORDER BY ordinal_position`,
      [tablename],
    );
    for (const c of columns) {
      const type = c.data_type === 'ARRAY' ? `${String(c.udt_name).slice(1)}[]` : c.data_type;
      const parts = [
        c.column_name,
        type,
        c.collation_name ? `COLLATE "${c.collation_name}"` : '',
        c.is_nullable === 'NO' ? 'NOT NULL' : '',
        c.column_default === null ? '' : `DEFAULT ${c.column_default}`,
        c.identity_generation ? `GENERATED ${c.identity_generation} AS IDENTITY` : '',
      ];
      lines.push(`  ${parts.filter((p) => p !== '').join(' ')}`);
    }
    const constraints = await port.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
        WHERE conrelid = $1::regclass ORDER BY conname COLLATE "C"`,
      [`public.${tablename}`],
    );
    for (const c of constraints) lines.push(`  ${c.conname}: ${c.def}`);
  }
  const indexes = await port.query(
    `SELECT indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> 'schema_migrations'
        AND indexname NOT IN (SELECT conname FROM pg_constraint) ORDER BY indexname COLLATE "C"`,
  );
  for (const i of indexes) lines.push(`index ${i.indexname}: ${String(i.indexdef).replace(/public\./g, '')}`);
  return `${lines.join('\n')}\n`;
}
