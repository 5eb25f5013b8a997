/**
 * The pipeline `serve` runs (docs/pipeline.md): every `intervalS` seconds a cycle runs each step in order — each
 * only when this instance takes its lease, so that of several instances one runs a step at a time — and records its
 * progress, last success and last error in the store, where every instance's `/readyz` and the console read them.
 * One cycle at a time per instance: the next is scheduled when the last ends. `stop` (on SIGTERM) lets the step in
 * progress finish within a deadline, else abandons it: its writes are per transaction and resume from its
 * watermark, and its lease is given up so that another instance need not wait for it to run out.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { observeStep } from '../observability/pipeline-observer.js';
import type { PipelineStepStatus } from '../store/pipeline/pipeline-records.js';
import type { Store } from '../store/store.js';
import type { Lease } from './lease.js';
import type { PipelineStep } from './step.js';

/** A lease runs this long without renewal; its holder renews it every third of it while the step runs. */
export const DEFAULT_LEASE_TTL_MS = 60_000;
/** Progress lines are written to the store at most this often. */
const PROGRESS_EVERY_MS = 2_000;

export interface PipelineLog {
  info(detail: object, message: string): void;
  warn(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

export interface PipelineOptions {
  readonly store: Store;
  readonly lease: Lease;
  readonly steps: readonly PipelineStep[];
  readonly intervalS: number;
  readonly leaseTtlMs?: number;
  /** This instance's id as a holder; default host, process id and a random part. */
  readonly holder?: string;
  readonly clock?: () => Date;
  readonly log?: PipelineLog;
}

/** What a cycle did with each step. */
export type StepOutcome = 'ran' | 'failed' | 'not_due' | 'held_elsewhere' | 'stopped';

export class Pipeline {
  readonly holder: string;
  readonly #options: PipelineOptions;
  readonly #ttlMs: number;
  readonly #clock: () => Date;
  #timer: NodeJS.Timeout | undefined;
  #cycle: Promise<unknown> | undefined;
  #stopping = false;
  /** The step this instance runs now, and since when. */
  #current: { step: string; since: string } | undefined;

  constructor(options: PipelineOptions) {
    this.#options = options;
    this.#ttlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    this.#clock = options.clock ?? (() => new Date());
    this.holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  }

  get current(): { step: string; since: string } | undefined {
    return this.#current;
  }

  /** Schedules a cycle every `intervalS` seconds, the first one interval from now; nothing when it is 0. */
  start(): void {
    if (this.#options.intervalS <= 0) return;
    const schedule = () => {
      if (this.#stopping) return;
      this.#timer = setTimeout(() => {
        this.#cycle = this.runCycle().finally(() => {
          this.#cycle = undefined;
          schedule();
        });
      }, this.#options.intervalS * 1000);
    };
    schedule();
  }

  /** One cycle: each step in order, the outcome of each by name. Never rejects: a failure is the step's status. */
  async runCycle(): Promise<Record<string, StepOutcome>> {
    const outcomes: Record<string, StepOutcome> = {};
    let statuses: Map<string, PipelineStepStatus> | undefined;
    for (const step of this.#options.steps) {
      if (this.#stopping) {
        outcomes[step.name] = 'stopped';
        continue;
      }
      try {
        if (step.due) {
          statuses ??= new Map((await this.#options.store.pipeline.listPipelineSteps()).map((s) => [s.step, s]));
          if (!step.due(statuses.get(step.name), this.#clock())) {
            outcomes[step.name] = 'not_due';
            continue;
          }
        }
        if (!(await this.#options.lease.acquire(step.name, this.holder, this.#ttlMs))) {
          outcomes[step.name] = 'held_elsewhere';
          continue;
        }
      } catch (error) {
        // The store or Redis is down: this cycle cannot know who runs the step, so none here does.
        this.#options.log?.warn({ step: step.name, err: error }, 'pipeline: could not take the lease');
        outcomes[step.name] = 'held_elsewhere';
        continue;
      }
      outcomes[step.name] = await this.#runHeld(step);
    }
    return outcomes;
  }

  /**
   * Stops scheduling cycles and waits for the step in progress at most `deadlineMs`: 'finished' when none is left
   * running, 'abandoned' when one still was (its lease given up and its status saying so).
   */
  async stop(deadlineMs: number): Promise<'finished' | 'abandoned'> {
    this.#stopping = true;
    clearTimeout(this.#timer);
    const cycle = this.#cycle;
    if (!cycle) return 'finished';
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      cycle.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), deadlineMs);
      }),
    ]);
    clearTimeout(timer);
    const current = this.#current;
    if (finished || !current) return 'finished';
    const at = this.#clock().toISOString();
    await this.#quietly('abandon', async () => {
      await this.#options.store.pipeline.stepEnded(current.step, this.holder, {
        at,
        error: 'abandoned at shutdown (resumes from its watermark in the next cycle)',
      });
      await this.#options.lease.release(current.step, this.holder);
    });
    return 'abandoned';
  }

  async #runHeld(step: PipelineStep): Promise<StepOutcome> {
    const { store, lease, log } = this.#options;
    const started = this.#clock();
    const since = started.toISOString();
    this.#current = { step: step.name, since };
    const renewal = setInterval(() => {
      lease.renew(step.name, this.holder, this.#ttlMs).then(
        (held) => {
          if (!held) log?.warn({ step: step.name }, 'pipeline: lease lost while the step runs (it ran out)');
        },
        (error: unknown) => log?.warn({ step: step.name, err: error }, 'pipeline: could not renew the lease'),
      );
    }, this.#ttlMs / 3);
    let lastProgress = 0;
    const progress = (line: string) => {
      if (Date.now() - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = Date.now();
      void this.#quietly('progress', () => store.pipeline.stepProgress(step.name, this.holder, line));
    };
    try {
      await this.#quietly('status', () => store.pipeline.stepStarted(step.name, this.holder, since));
      let outcome: StepOutcome;
      try {
        const run = () => step.run({ store, now: this.#clock, progress });
        const summary = await observeStep(step.name, run, step.items);
        const ended = this.#clock();
        const seconds = (ended.getTime() - started.getTime()) / 1000;
        await this.#quietly('status', () =>
          store.pipeline.stepEnded(step.name, this.holder, { at: ended.toISOString(), seconds, summary }),
        );
        outcome = 'ran';
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log?.error({ step: step.name, err: error }, 'pipeline: step failed');
        await this.#quietly('status', () =>
          store.pipeline.stepEnded(step.name, this.holder, { at: this.#clock().toISOString(), error: message }),
        );
        outcome = 'failed';
      }
      await this.#quietly('release', () => lease.release(step.name, this.holder));
      return outcome;
    } finally {
      clearInterval(renewal);
      this.#current = undefined;
    }
  }

  /** A status write that fails is logged, never the step's failure: the step's own writes are what count. */
  async #quietly(what: string, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.#options.log?.warn({ err: error }, `pipeline: could not write the ${what}`);
    }
  }
}
