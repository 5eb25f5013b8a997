/** What the store keeps of the pipeline (docs/pipeline.md): a step's status as `/readyz` and the console show it. */

export interface PipelineStepStatus {
  /** The step's name: `sync_base`, `sync_ine`, `detect`, `match`, … */
  readonly step: string;
  /** The instance running it now (its holder id: host, process id and a random part); null when none is. */
  readonly running_holder: string | null;
  readonly running_since: string | null;
  /** What the run in progress last said it was doing (a sync's last progress line); null when none is running. */
  readonly progress: string | null;
  /** When a run of it last started, whatever its outcome. */
  readonly last_started_at: string | null;
  readonly last_success_at: string | null;
  /** How long the last successful run took. */
  readonly last_seconds: number | null;
  /** The last successful run's summary (what it read and wrote), as JSON. */
  readonly last_summary: unknown;
  /** The last failed run's error message, and when it failed; kept after later successes, which are dated. */
  readonly last_error: string | null;
  readonly last_error_at: string | null;
}
