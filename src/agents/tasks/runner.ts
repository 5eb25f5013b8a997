/**
 * Runs tasks in this process through a small queue, each task once even with several processes on one store:
 * a task is claimed by one atomic update and held under a lease that is renewed while it runs; its outcome is
 * written only while the lease is still held; claimable tasks (left queued, or whose process died) are looked for
 * on start and every few seconds; `close()` drains the running ones, then releases their claims.
 * docs/agents.md, "Tasks", says why each step is safe.
 */
import { randomBytes } from 'node:crypto';
import type { AgentTaskRecord } from '../../store/agent-records.js';
import type { Store } from '../../store/store.js';

export interface TaskOutcome {
  readonly state: 'COMPLETED' | 'FAILED' | 'REJECTED';
  readonly result: string | null;
  readonly error: string | null;
}

/** Test seams: observe each run, or hold it (to close a process while a task is WORKING). */
export interface TaskHooks {
  /** Called when this process starts running a task (after its claim), before the skill; may wait. */
  beforeRun?(task: AgentTaskRecord): Promise<void> | void;
}

export interface TaskRunnerOptions {
  readonly store: Store;
  readonly clock: () => number;
  readonly run: (task: AgentTaskRecord) => Promise<TaskOutcome>;
  readonly hooks?: TaskHooks;
  /** Tasks run at once by this process. */
  readonly concurrency?: number;
  readonly leaseMs?: number;
  readonly sweepMs?: number;
  readonly drainMs?: number;
}

type Waiter = () => void;

export class TaskRunner {
  readonly worker = `w_${randomBytes(8).toString('hex')}`;
  readonly #options: Required<Omit<TaskRunnerOptions, 'hooks'>> & { hooks: TaskHooks };
  readonly #queue: string[] = [];
  readonly #queued = new Set<string>();
  readonly #running = new Map<string, Promise<void>>();
  readonly #waiters = new Map<string, Set<Waiter>>();
  #timer: NodeJS.Timeout | undefined;
  #renewTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(options: TaskRunnerOptions) {
    this.#options = {
      ...options,
      concurrency: options.concurrency ?? 4,
      leaseMs: options.leaseMs ?? 30_000,
      sweepMs: options.sweepMs ?? 2_000,
      drainMs: options.drainMs ?? 10_000,
      hooks: options.hooks ?? {},
    };
  }

  /** Resumes what is claimable now, then sweeps periodically. */
  start(): void {
    void this.sweep();
    this.#timer = setInterval(() => void this.sweep(), this.#options.sweepMs);
    this.#timer.unref();
    this.#renewTimer = setInterval(() => void this.#renew(), Math.max(1_000, this.#options.leaseMs / 3));
    this.#renewTimer.unref();
  }

  enqueue(taskId: string): void {
    if (this.#closed || this.#queued.has(taskId) || this.#running.has(taskId)) return;
    this.#queue.push(taskId);
    this.#queued.add(taskId);
    this.#pump();
  }

  /** Queues the tasks any process may claim now. */
  async sweep(): Promise<void> {
    if (this.#closed) return;
    try {
      const ids = await this.#options.store.agents.claimableAgentTasks(this.#iso(), 100);
      for (const id of ids) this.enqueue(id);
    } catch {
      // The next sweep retries.
    }
  }

  /** Resolves when this process has finished the task (any outcome), or after `timeoutMs`. */
  waitFor(taskId: string, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const waiters = this.#waiters.get(taskId) ?? new Set<Waiter>();
      const done = () => {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      waiters.add(done);
      this.#waiters.set(taskId, waiters);
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    clearInterval(this.#renewTimer);
    this.#queue.length = 0;
    this.#queued.clear();
    const running = [...this.#running.values()];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(running),
      new Promise((resolve) => (timer = setTimeout(resolve, this.#options.drainMs))),
    ]);
    clearTimeout(timer);
    // Anything still running now is abandoned: let the next process take it over without waiting for the lease.
    if (this.#running.size > 0) await this.#options.store.agents.releaseAgentTasks(this.worker).catch(() => 0);
    for (const waiters of this.#waiters.values()) for (const waiter of [...waiters]) waiter();
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#options.concurrency && this.#queue.length > 0) {
      const id = this.#queue.shift() as string;
      this.#queued.delete(id);
      const run = this.#runOne(id).finally(() => {
        this.#running.delete(id);
        this.#notify(id);
        this.#pump();
      });
      this.#running.set(id, run);
    }
  }

  async #runOne(id: string): Promise<void> {
    const { store, leaseMs, hooks, run } = this.#options;
    const now = this.#options.clock();
    let task: AgentTaskRecord | undefined;
    try {
      task = await store.agents.claimAgentTask(
        id,
        this.worker,
        new Date(now + leaseMs).toISOString(),
        new Date(now).toISOString(),
      );
    } catch {
      return; // the store is unreachable: a later sweep retries
    }
    if (!task) return; // another process holds it, or it is final or canceled
    let outcome: TaskOutcome;
    try {
      await hooks.beforeRun?.(task);
      outcome = await run(task);
    } catch {
      outcome = {
        state: 'FAILED',
        result: null,
        error: JSON.stringify({ reason: 'INTERNAL', detail: 'The task failed unexpectedly.' }),
      };
    }
    // Written only while this worker holds the claim (see the store's finishAgentTask).
    await store.agents.finishAgentTask(id, this.worker, { ...outcome, now: this.#iso() }).catch(() => false);
  }

  async #renew(): Promise<void> {
    if (this.#running.size === 0) return;
    const until = new Date(this.#options.clock() + this.#options.leaseMs).toISOString();
    await this.#options.store.agents
      .renewAgentTaskLeases(this.worker, [...this.#running.keys()], until)
      .catch(() => undefined);
  }

  #notify(id: string): void {
    const waiters = this.#waiters.get(id);
    if (!waiters) return;
    this.#waiters.delete(id);
    for (const waiter of [...waiters]) waiter();
  }

  #iso(): string {
    return new Date(this.#options.clock()).toISOString();
  }
}
