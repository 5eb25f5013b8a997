/**
 * The version of the rules detection derives signals by (docs/signals.md, "When the rules change"). The detectors
 * read only what the journal says changed since their watermarks, so a new rule — a ceiling read another way, an
 * integrity check at a new version — would reach only the records that change after it. Raise DETECTION_RULES with
 * any change that makes a detector or an integrity check write something else for the same data: a store last
 * detected under an older version has the watermarks of the detectors that derive from the journal reset, and its
 * next run reads the whole journal again, writing what changed — what detection from scratch writes.
 */
import type { DetectionStore } from './detection-store.js';
import { INDICATORS_WATERMARK } from './indicator-detector.js';
import { INTEGRITY_WATERMARK } from './integrity-scope.js';
import { PROCUREMENT_WATERMARK } from './procurement-detector.js';

/**
 * 1: until 2026-11-30. 2: a buyer nothing ties to a region held to the general law's ceilings, the kind of contract
 * read from the article cited; repeated direct awards and possible splitting at version 2.
 */
export const DETECTION_RULES = 2;
export const RULES_WATERMARK = 'detect:rules';
const DERIVING = [PROCUREMENT_WATERMARK, INTEGRITY_WATERMARK, INDICATORS_WATERMARK];

/**
 * Resets the deriving detectors' watermarks when the store was detected under older rules (a store detected before
 * the rules had a version counts as version 1). A store detected by newer rules is left alone: an older instance in
 * a rolling deploy must not undo what a newer one derived, nor the two derive everything again in turn.
 */
export async function deriveAgainUnderNewRules(store: DetectionStore): Promise<void> {
  const kept = Number.parseInt((await store.getWatermark(RULES_WATERMARK)) ?? '', 10);
  const before = Number.isInteger(kept) ? kept : (await detectedBefore(store)) ? 1 : null;
  if (before !== null && before >= DETECTION_RULES) return;
  if (before !== null) for (const name of DERIVING) await store.setWatermark(name, '0');
  await store.setWatermark(RULES_WATERMARK, String(DETECTION_RULES));
}

async function detectedBefore(store: DetectionStore): Promise<boolean> {
  for (const name of DERIVING) if ((await store.getWatermark(name)) !== null) return true;
  return false;
}
