/**
 * The access version on PostgreSQL (Store.accessVersion; docs/architecture.md, Revocation): a counter in `meta`
 * (../meta.ts), bumped in the transaction that revokes a key, which also sends `NOTIFY munidata_access` with the new
 * value.
 * Every instance keeps one connection LISTENing and holds the value in memory, so reading it on every request
 * costs nothing; the notification arrives when the revoking transaction commits, before the CLI that ran it has
 * even exited. While that connection is down (or not yet up) the value is read from the table; if the store
 * cannot be reached at all, the last value known stands (nothing can be revoked then either, and the
 * authenticator's short cache bounds what a revocation committed meanwhile would wait).
 */
import pg from 'pg';
import { DependencyUnavailableError } from '../../lib/dependency.js';
import { readAccessVersion } from '../meta.js';
import type { SqlPort } from '../sql/port.js';

const CHANNEL = 'munidata_access';
/** Between attempts to (re)open the listening connection. */
const RETRY_MS = 1_000;

/** Tells every listening instance the new version; inside the revoking transaction (delivered at its commit). */
export async function notifyAccessVersion(tx: SqlPort, version: number): Promise<void> {
  await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, String(version)]);
}

export class AccessVersionWatch {
  readonly #url: string;
  readonly #primary: SqlPort;
  #client: pg.Client | undefined;
  /** The value while listening; undefined otherwise. */
  #listened: number | undefined;
  #lastKnown: number | undefined;
  #connecting = false;
  #nextAttemptMs = 0;
  #closed = false;

  constructor(url: string, primary: SqlPort) {
    this.#url = url;
    this.#primary = primary;
  }

  /** The value held while listening, at once (every request reads it); otherwise read from the table. */
  current(): number | Promise<number> {
    return this.#listened ?? this.#read();
  }

  async #read(): Promise<number> {
    this.#listen();
    try {
      const version = await readAccessVersion(this.#primary);
      this.#lastKnown = Math.max(this.#lastKnown ?? 0, version);
      return this.#lastKnown;
    } catch (error) {
      if (error instanceof DependencyUnavailableError && this.#lastKnown !== undefined) return this.#lastKnown;
      throw error;
    }
  }

  /**
   * A revocation this process committed: known at once, without waiting for its own notification (which another
   * connection delivers, possibly after the next request has arrived).
   */
  advance(version: number): void {
    this.#lastKnown = Math.max(this.#lastKnown ?? 0, version);
    if (this.#listened !== undefined) this.#listened = Math.max(this.#listened, version);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listened = undefined;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  /** Opens the listening connection in the background, at most once a second. */
  #listen(): void {
    if (this.#closed || this.#connecting || this.#client || Date.now() < this.#nextAttemptMs) return;
    this.#connecting = true;
    this.#nextAttemptMs = Date.now() + RETRY_MS;
    const client = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: 5_000 });
    let heard = 0;
    const lost = () => {
      if (this.#client === client) {
        this.#client = undefined;
        this.#listened = undefined;
      }
      client.end().catch(() => {});
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL) return;
      heard = Math.max(heard, Number(message.payload) || 0);
      if (this.#client === client) this.#listened = Math.max(this.#listened ?? 0, heard);
    });
    void (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
        const { rows } = await client.query("SELECT value FROM meta WHERE key = 'access_version'");
        if (this.#closed) throw new Error('closed');
        this.#client = client;
        // A notification between LISTEN and the read is counted too: the version only grows.
        this.#listened = Math.max(Number(rows[0]?.value ?? 0), heard, this.#lastKnown ?? 0);
        this.#lastKnown = this.#listened;
      } catch {
        lost();
      } finally {
        this.#connecting = false;
      }
    })();
  }
}
