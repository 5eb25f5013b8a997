/** One step of the pipeline: what a command does today (`sync`, `detect`, `alerts match`), run by `serve`. */

import type { PipelineStepStatus } from '../store/pipeline/pipeline-records.js';
import type { Store } from '../store/store.js';

export interface StepContext {
  readonly store: Store;
  /** The run's clock. */
  now(): Date;
  /** What the step is doing now, for `/readyz` and the console (a sync's progress lines). */
  progress(line: string): void;
}

export interface PipelineStep {
  /** Its name in `/readyz`, the console and the lease: snake_case. */
  readonly name: string;
  /** Whether it should run this cycle, from its status (default: every cycle). */
  due?(status: PipelineStepStatus | undefined, now: Date): boolean;
  /** Runs it, incrementally (from the watermarks it keeps); resolves with its summary, rejects on failure. */
  run(context: StepContext): Promise<unknown>;
  /** How many items a run's summary says it processed (the metrics' `munidata_pipeline_step_items_total`). */
  items?(summary: unknown): number;
}
