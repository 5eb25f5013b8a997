/**
 * `munidata detect`: the procurement detectors, the integrity detector, the deadline sweep, the indicator detectors,
 * then the cases of every signal they wrote — in that order, each resuming from its own watermark (reset first when
 * the store was detected under older rules: detection-rules.ts). The demo loader
 * and the alert matcher call it too. `now` is the run's clock: statuses, actionability and the seen instants all
 * come from it.
 */
import { dateOf } from '../signals/derive.js';
import type { DetectionContext } from './detection-context.js';
import { deriveAgainUnderNewRules } from './detection-rules.js';
import type { DetectionStore } from './detection-store.js';
import { detectIndicators } from './indicator-detector.js';
import { detectIntegrity, type IntegritySummary } from './integrity-detector.js';
import { Places } from './places.js';
import { type DetectorSummary, detectProcurement } from './procurement-detector.js';
import { type CaseRunSummary, runCases } from './run-cases.js';
import { startSweep, sweepDeadlines } from './sweep.js';

export interface DetectionOptions {
  now: Date;
  /** Journal entries (procurement) or signals (sweep, indicators) per transaction. */
  batchSize?: number;
  /** Cases computed per transaction. */
  caseBatchSize?: number;
}

export interface DetectionSummary {
  now: string;
  procurement: DetectorSummary;
  integrity: IntegritySummary;
  sweep: DetectorSummary & { from: string | null };
  indicators: DetectorSummary & { indicators: string[] };
  signals: { inserted: number; updated: number; unchanged: number };
  cases: CaseRunSummary;
  seconds: number;
}

export async function runDetection(store: DetectionStore, options: DetectionOptions): Promise<DetectionSummary> {
  const started = performance.now();
  const now = instant(options.now);
  const today = dateOf(options.now);
  const ctx: DetectionContext = { today, places: new Places(await store.listMunicipalities()) };
  const run = { now, batchSize: options.batchSize };
  await deriveAgainUnderNewRules(store);
  await startSweep(store, today);
  const procurement = await detectProcurement(store, ctx, run);
  const integrity = await detectIntegrity(store, ctx, run);
  const sweep = await sweepDeadlines(store, ctx, run);
  const indicators = await detectIndicators(store, ctx, run);
  const cases = await runCases(store, { now, batchSize: options.caseBatchSize });
  const signals = { inserted: 0, updated: 0, unchanged: 0 };
  for (const part of [procurement, integrity, sweep, indicators]) {
    signals.inserted += part.inserted;
    signals.updated += part.updated;
    signals.unchanged += part.unchanged;
  }
  return {
    now,
    procurement,
    integrity,
    sweep,
    indicators,
    signals,
    cases,
    seconds: Math.round(performance.now() - started) / 1000,
  };
}

/** RFC 3339 UTC to the second (`2026-07-14T09:30:00Z`), as the store compares instants as text. */
export function instant(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
