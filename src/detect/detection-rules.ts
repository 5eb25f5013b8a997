/**
 * The rules detection derives signals by (docs/signals.md, "When the rules change"). The detectors read only what the
 * journal says changed since their watermarks, so a new rule — a ceiling read another way, an integrity check at a
 * new version — would reach only the records that change after it. The rules are the detectors' own version
 * (DETECTOR_RULES, raised by hand with any change that makes a procurement or indicator detector, or what every
 * integrity check shares, write something else for the same data) and each integrity type's version, read from the
 * catalogue: a check's new version is a change of rules without anything else to remember; and how an integrity
 * signal is written (INTEGRITY_SIGNALS, by hand, beside `integritySignal`). A store last detected under older rules
 * has the watermarks of the detectors they concern reset, and its next run reads the whole journal again, writing
 * what changed — what detection from scratch writes.
 */
import { INTEGRITY_TYPES } from '../integrity/assess-contract.js';
import type { DetectionStore } from './detection-store.js';
import { INDICATORS_WATERMARK } from './indicator-detector.js';
import { INTEGRITY_WATERMARK } from './integrity-scope.js';
import { INTEGRITY_SIGNALS } from './integrity-signal.js';
import { PROCUREMENT_WATERMARK } from './procurement-detector.js';

/**
 * 1: until 2026-11-30. 2: a buyer nothing ties to a region held to the general law's ceilings, the kind of contract
 * read from the article cited. 3 (2026-11-30 evening): indicator texts write a value as stored (18 690, not 1 869;
 * 1 234,56, not 1 235) and a monthly series' December as a month ("dezembro de 2017", not "2017"). 4 (2026-12-01):
 * procurement texts name public bodies with their article ("O Município de Lisboa celebrou…", "adjudicado à Câmara
 * Municipal…") and places with theirs ("no Porto", "na Guarda": lib/portuguese-articles.ts), and English texts an
 * unnamed buyer in English. 5 (2026-12-01): a contract or notice in several municipalities names each with its
 * article ("com execução no Porto, em Matosinhos e na Maia"), not the list after a bare "em". 6: a procedure type
 * with a parenthetical of its own is set in one pair of parentheses ("(ao abrigo de acordo-quadro, art.º 259.º)",
 * not "(ao abrigo de acordo-quadro (art.º 259.º))"), in summaries and evidence titles, and so are an index's base
 * and the period of a value ("64,3 (Portugal = 100, 2011)"); a text clipped inside a parenthesis closes it
 * ("(acidentes de trabalho, automóvel e…)").
 */
export const DETECTOR_RULES = 6;
export const RULES_WATERMARK = 'detect:rules';

/**
 * The rules, by part: `detectors`, `integrity_signals` (how an integrity signal is written: INTEGRITY_SIGNALS), then
 * each integrity type's key. A part a store does not name counts as 0.
 */
export type Rules = Record<string, number>;

export function currentRules(): Rules {
  return {
    detectors: DETECTOR_RULES,
    integrity_signals: INTEGRITY_SIGNALS,
    ...Object.fromEntries(INTEGRITY_TYPES.map((t) => [t.key, t.version])),
  };
}

/**
 * Before the watermark held the rules by part it held one number (2026-11-30): 2 was the detectors' second rules with
 * the integrity types at these versions (integrity signals written the first way).
 */
const HELD_AS_2: Rules = {
  detectors: 2,
  integrity_signals: 1,
  short_submission_period: 1,
  short_submission_period_vs_comparable: 1,
  single_bid: 1,
  excessive_unsuccessful_bids: 1,
  heterogeneous_supplier: 1,
  price_at_base_price: 1,
  cost_overrun: 1,
  delay: 1,
  supplier_concentration: 1,
  repeated_direct_awards: 2,
  possible_splitting: 2,
};

/**
 * Resets the watermarks of the detectors whose rules are newer than the store's: the procurement, integrity and
 * indicator detectors' when DETECTOR_RULES is, the integrity detector's alone when only INTEGRITY_SIGNALS or a
 * type's version is (a store detected before the rules were kept counts as the detectors' first rules). A store
 * detected under rules newer in any part is left alone: an older instance in a rolling deploy must not undo what a
 * newer one derived, nor the two derive everything again in turn.
 */
export async function deriveAgainUnderNewRules(store: DetectionStore): Promise<void> {
  const now = currentRules();
  const watermark = await store.getWatermark(RULES_WATERMARK);
  const held = readRules(watermark) ?? ((await detectedBefore(store)) ? {} : now);
  const parts = Object.keys(now);
  if (parts.some((part) => (held[part] ?? 0) > now[part])) return;
  const older = parts.filter((part) => (held[part] ?? 0) < now[part]);
  const reset = older.includes('detectors') ? DERIVING : older.length > 0 ? [INTEGRITY_WATERMARK] : [];
  for (const name of reset) await store.setWatermark(name, '0');
  const kept = JSON.stringify(now);
  if (watermark !== kept) await store.setWatermark(RULES_WATERMARK, kept);
}

const DERIVING = [PROCUREMENT_WATERMARK, INTEGRITY_WATERMARK, INDICATORS_WATERMARK];

/**
 * The rules a watermark holds: by part (JSON), or one number as it was kept before (1, or 2: HELD_AS_2); anything else
 * counts as no rules (everything is derived again).
 */
function readRules(kept: string | null): Rules | null {
  if (kept === null) return null;
  if (kept.startsWith('{')) return JSON.parse(kept) as Rules;
  const number = Number(kept);
  if (!Number.isInteger(number)) return {};
  return number >= 2 ? { ...HELD_AS_2, detectors: number } : { detectors: number };
}

async function detectedBefore(store: DetectionStore): Promise<boolean> {
  for (const name of DERIVING) if ((await store.getWatermark(name)) !== null) return true;
  return false;
}
