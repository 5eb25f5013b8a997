/**
 * The data version, the access version and the installation's secrets (see Store.dataVersion, Store.accessVersion
 * and Store.secret), in the `meta` table.
 */
import { randomBytes } from 'node:crypto';
import type { SqlPort } from './sql/port.js';

export async function readDataVersion(port: SqlPort): Promise<number> {
  const [row] = await port.query("SELECT value FROM meta WHERE key = 'data_version'");
  return Number(row?.value ?? 0);
}

/** Bumps the data version; call it inside the transaction of every write that changes served data. */
export async function bumpDataVersion(tx: SqlPort): Promise<void> {
  await tx.run("UPDATE meta SET value = CAST(CAST(value AS bigint) + 1 AS text) WHERE key = 'data_version'");
}

const PROCUREMENT_VERSION = 'procurement_version';

/** The procurement version (Store.procurementVersion): 0 until the first write of procurement records. */
export async function readProcurementVersion(port: SqlPort): Promise<number> {
  const [row] = await port.query('SELECT value FROM meta WHERE key = $1', [PROCUREMENT_VERSION]);
  return Number(row?.value ?? 0);
}

/**
 * Bumps the procurement version and the data version; call it inside the transaction of every write that changes the
 * procurement records. The row is made on first use, so stores migrated before it need no migration.
 */
export async function bumpProcurementVersion(tx: SqlPort): Promise<void> {
  await bumpDataVersion(tx);
  await tx.run(
    `INSERT INTO meta (key, value) VALUES ($1, '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS bigint) + 1 AS text)`,
    [PROCUREMENT_VERSION],
  );
}

/** The access version's row; SQLite also runs it as a prepared statement of its own (sqlite-store.ts). */
export const ACCESS_VERSION_SQL = "SELECT value FROM meta WHERE key = 'access_version'";

export async function readAccessVersion(port: SqlPort): Promise<number> {
  const [row] = await port.query(ACCESS_VERSION_SQL);
  return Number(row?.value ?? 0);
}

/** Moves the access version, inside the transaction that revokes a credential; the new value. */
export async function bumpAccessVersion(tx: SqlPort): Promise<number> {
  const [row] = await tx.query(
    `INSERT INTO meta (key, value) VALUES ('access_version', '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(meta.value AS bigint) + 1 AS text) RETURNING value`,
  );
  return Number(row.value);
}

/** The secret named `name`, created at first use; instances that create it at once all get the first one stored. */
export async function readSecret(port: SqlPort, name: string): Promise<string> {
  const key = `secret:${name}`;
  await port.run('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
    key,
    randomBytes(32).toString('base64url'),
  ]);
  const [row] = await port.query('SELECT value FROM meta WHERE key = $1', [key]);
  return String(row.value);
}
