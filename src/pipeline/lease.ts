/**
 * A step's lease: of several instances, the one holding it runs the step; the others skip it this cycle. A lease
 * runs out `ttlMs` after it was last taken or renewed, so that one whose holder died (kill -9, a lost machine) is
 * free again soon after, for the next instance's cycle (docs/pipeline.md, "Several instances").
 */
import type { PipelineStore } from '../store/pipeline/pipeline-sql-store.js';

export interface Lease {
  /** Where leases are held, as `/readyz` names it. */
  readonly kind: 'store' | 'redis';
  /** True when `holder` now holds `step` for `ttlMs` (taken, or its own renewed). */
  acquire(step: string, holder: string, ttlMs: number): Promise<boolean>;
  /** True when `holder` still held `step` and holds it for `ttlMs` more. */
  renew(step: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Frees `step` if `holder` holds it. */
  release(step: string, holder: string): Promise<void>;
}

/**
 * Leases in the store's `pipeline_leases` table. Expiry compares each instance's clock with the one that wrote the
 * lease: the instances' clocks must agree to well within the lease's time (NTP does).
 */
export function storeLease(store: { readonly pipeline: PipelineStore }, clock: () => number = Date.now): Lease {
  return {
    kind: 'store',
    acquire: (step, holder, ttlMs) => store.pipeline.acquireLease(step, holder, clock(), ttlMs),
    renew: (step, holder, ttlMs) => store.pipeline.renewLease(step, holder, clock(), ttlMs),
    release: (step, holder) => store.pipeline.releaseLease(step, holder),
  };
}
