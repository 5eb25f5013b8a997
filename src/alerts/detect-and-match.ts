/**
 * One pass of the pipeline behind the signals and alerts domains: the detectors and the cases, then the alert
 * matcher over what they wrote. `munidata detect` and the demo loader both run it.
 */

import { type DetectionSummary, runDetection } from '../detect/run-detection.js';
import type { Store } from '../store/store.js';
import { type AlertMatchingSummary, runAlertMatching } from './run-matching.js';

export interface DetectReport extends DetectionSummary {
  alerts: AlertMatchingSummary;
}

export async function detectAndMatch(store: Store, now: Date): Promise<DetectReport> {
  const detection = await runDetection(store, { now });
  const alerts = await runAlertMatching(store, { now });
  return { ...detection, alerts };
}
