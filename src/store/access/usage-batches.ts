/**
 * Usage written at most once per batch. The usage journals (src/access/usage-journal.ts, daily-usage.ts) send their
 * counts in batches that a writer numbers in order, and send a batch that failed again, whole and under its number:
 * a write whose commit landed while its answer was lost (a dropped connection) would otherwise be counted twice.
 * The store keeps the last number applied per writer, in the transaction that adds the counts (docs/deploy.md,
 * "Durability").
 */
import type { SharedMigration } from '../sql/migration.js';
import type { SqlPort } from '../sql/port.js';

/** A batch's place in its writer's order: a writer is one journal of one process, named at random as it starts. */
export interface UsageBatch {
  writer: string;
  number: number;
}

/** Writers not heard from for this long are forgotten (a process restarts under a new name). */
const FORGET_AFTER_DAYS = 30;

export const USAGE_WRITERS_MIGRATION: SharedMigration = {
  version: 115,
  name: 'usage writers',
  sql: ({ key, bigint, text, clustered }) => `
CREATE TABLE usage_writers (
  writer     ${key} NOT NULL PRIMARY KEY,
  last_batch ${bigint} NOT NULL,
  seen_at    ${text} NOT NULL
)${clustered};
`,
};

/**
 * Records the batch as applied, in the caller's transaction: false when its writer's last applied batch is this one
 * or a later one, and the caller then adds nothing. A writer's first batch also forgets long-silent writers.
 */
export async function firstApplication(tx: SqlPort, batch: UsageBatch, now: Date): Promise<boolean> {
  const [known] = await tx.query('SELECT last_batch FROM usage_writers WHERE writer = $1', [batch.writer]);
  if (known && Number(known.last_batch) >= batch.number) return false;
  const seenAt = now.toISOString();
  if (known) {
    await tx.run('UPDATE usage_writers SET last_batch = $2, seen_at = $3 WHERE writer = $1', [
      batch.writer,
      batch.number,
      seenAt,
    ]);
  } else {
    const forgetBefore = new Date(now.getTime() - FORGET_AFTER_DAYS * 86_400_000).toISOString();
    await tx.run('DELETE FROM usage_writers WHERE seen_at < $1', [forgetBefore]);
    await tx.run('INSERT INTO usage_writers (writer, last_batch, seen_at) VALUES ($1, $2, $3)', [
      batch.writer,
      batch.number,
      seenAt,
    ]);
  }
  return true;
}
