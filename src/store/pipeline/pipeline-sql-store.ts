/**
 * The pipeline's leases and step statuses (held by `Store.pipeline`), written once for both stores over the SQL
 * port. A lease is taken by one statement that inserts it or takes it over only when it has expired (or is the
 * taker's own), so that of several instances asking at once exactly one gets it: PostgreSQL locks the row the
 * conflict names and re-checks the condition on the row as the winner left it; SQLite's writes take turns.
 */
import { jsonOrNull, numberOrNull, recordCodec, text, textOrNull } from '../shared/record-codec.js';
import type { SqlPort } from '../sql/port.js';
import type { PipelineStepStatus } from './pipeline-records.js';

const STATUS = recordCodec<PipelineStepStatus>({
  step: text,
  running_holder: textOrNull,
  running_since: textOrNull,
  progress: textOrNull,
  last_started_at: textOrNull,
  last_success_at: textOrNull,
  last_seconds: numberOrNull,
  last_summary: jsonOrNull,
  last_error: textOrNull,
  last_error_at: textOrNull,
});

/** Progress and error texts are cut to this many characters: a status row, not a log. */
const TEXT_LIMIT = 500;

export interface PipelineStore {
  /**
   * Takes the lease on `step` for `holder` until `nowMs + ttlMs`: true when it was free, expired or `holder`'s
   * own (then renewed), false when another holder's lease is still running.
   */
  acquireLease(step: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean>;
  /** Extends `holder`'s lease on `step`; false when it no longer holds it (it expired and was taken). */
  renewLease(step: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean>;
  /** Gives the lease up, if `holder` still holds it. */
  releaseLease(step: string, holder: string): Promise<void>;
  /** A run of `step` began on `holder` at `at`. */
  stepStarted(step: string, holder: string, at: string): Promise<void>;
  /** What the run of `step` on `holder` is doing now. */
  stepProgress(step: string, holder: string, progress: string): Promise<void>;
  /** The run of `step` on `holder` ended: with its summary, or with an error. */
  stepEnded(
    step: string,
    holder: string,
    outcome: { at: string; seconds: number; summary: unknown } | { at: string; error: string },
  ): Promise<void>;
  /** Every step that has run at least once, by name. */
  listPipelineSteps(): Promise<PipelineStepStatus[]>;
}

export class PipelineSqlStore implements PipelineStore {
  readonly #sql: SqlPort;

  constructor(sql: SqlPort) {
    this.#sql = sql;
  }

  async acquireLease(step: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const taken = await this.#sql.run(
      `INSERT INTO pipeline_leases (step, holder, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (step) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
       WHERE pipeline_leases.expires_at <= $4 OR pipeline_leases.holder = excluded.holder`,
      [step, holder, nowMs + ttlMs, nowMs],
    );
    return taken === 1;
  }

  async renewLease(step: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const renewed = await this.#sql.run('UPDATE pipeline_leases SET expires_at = $3 WHERE step = $1 AND holder = $2', [
      step,
      holder,
      nowMs + ttlMs,
    ]);
    return renewed === 1;
  }

  async releaseLease(step: string, holder: string): Promise<void> {
    await this.#sql.run('DELETE FROM pipeline_leases WHERE step = $1 AND holder = $2', [step, holder]);
  }

  async stepStarted(step: string, holder: string, at: string): Promise<void> {
    await this.#sql.run(
      `INSERT INTO pipeline_steps (step, running_holder, running_since, last_started_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (step) DO UPDATE SET running_holder = excluded.running_holder,
         running_since = excluded.running_since, progress = NULL, last_started_at = excluded.last_started_at`,
      [step, holder, at],
    );
  }

  async stepProgress(step: string, holder: string, progress: string): Promise<void> {
    await this.#sql.run('UPDATE pipeline_steps SET progress = $3 WHERE step = $1 AND running_holder = $2', [
      step,
      holder,
      progress.slice(0, TEXT_LIMIT),
    ]);
  }

  async stepEnded(
    step: string,
    holder: string,
    outcome: { at: string; seconds: number; summary: unknown } | { at: string; error: string },
  ): Promise<void> {
    // Only the holder's own run is marked as no longer running: a run taken over since is another's.
    const ended = `running_holder = CASE WHEN running_holder = $2 THEN NULL ELSE running_holder END,
      running_since = CASE WHEN running_holder = $2 THEN NULL ELSE running_since END,
      progress = CASE WHEN running_holder = $2 THEN NULL ELSE progress END`;
    if ('error' in outcome) {
      await this.#sql.run(`UPDATE pipeline_steps SET ${ended}, last_error = $3, last_error_at = $4 WHERE step = $1`, [
        step,
        holder,
        outcome.error.slice(0, TEXT_LIMIT),
        outcome.at,
      ]);
    } else {
      await this.#sql.run(
        `UPDATE pipeline_steps SET ${ended}, last_success_at = $3, last_seconds = $4, last_summary = $5
         WHERE step = $1`,
        [step, holder, outcome.at, outcome.seconds, JSON.stringify(outcome.summary ?? null)],
      );
    }
  }

  listPipelineSteps(): Promise<PipelineStepStatus[]> {
    return STATUS.all(this.#sql, `SELECT ${STATUS.columns.join(', ')} FROM pipeline_steps ORDER BY step`);
  }
}
