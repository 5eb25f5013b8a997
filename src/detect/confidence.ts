/**
 * How sure a signal is, from 0 to 1 (docs/signals.md "Confidence"): the reliability of the source it rests on,
 * less a fixed amount for each key fact the record leaves out, never below a floor. Only facts decide it, so
 * the same record always gives the same confidence.
 */

/**
 * Reliability of each procurement source: the national portal's open data (BASE) as published by the
 * contracting entities themselves; the demo data set, coherent by construction but synthetic; anything else.
 */
const PROCUREMENT_SOURCE_RELIABILITY: Record<string, number> = { base: 0.95, demo: 0.9 };
const OTHER_SOURCE_RELIABILITY = 0.8;

/** What a missing fact costs. */
export const PENALTIES = {
  /** No price (or base price): the value tier and the amount are unknown. */
  amount: 0.15,
  /** Not placed in any municipality: the signal cannot be put on the map. */
  municipality: 0.1,
  /** No publication, signing or amendment date: the signal cannot be placed in time. */
  date: 0.1,
  /** A tender notice without a proposal deadline: whether it is still open is unknown. */
  deadline: 0.1,
  /** No link to the record at its source: the evidence cannot be checked there. */
  link: 0.05,
  /** An indicator figure that is an estimate (provisional or interpolated). */
  estimated: 0.15,
  /** An indicator figure computed from other series. */
  derived: 0.05,
  /** A comparison resting on few points: under 20 municipalities for a median, under 10 periods for a record. */
  thin: 0.1,
  /** A direct award whose legal regime (CCP, Azores, Madeira) neither its legal basis nor its buyer's region tells. */
  regime: 0.2,
  /**
   * An integrity flag that rests on more than its contract's record (the buyer's other contracts, the source's
   * corpus, a competitor list the portal may give incomplete): the records held may not be all there are.
   */
  coverage: 0.1,
} as const;

export type Missing = keyof typeof PENALTIES;

export const CONFIDENCE_FLOOR = 0.1;

export function procurementReliability(source: string): number {
  return PROCUREMENT_SOURCE_RELIABILITY[source] ?? OTHER_SOURCE_RELIABILITY;
}

/** Official statistics (INE, DGAL, …) and the demo series alike: the figures are published, not inferred. */
export const INDICATOR_RELIABILITY = 0.9;

/** reliability − Σ penalties of the missing facts, at least CONFIDENCE_FLOOR, to two decimals. */
export function confidence(reliability: number, missing: readonly Missing[]): number {
  const value = missing.reduce((c, m) => c - PENALTIES[m], reliability);
  return Math.round(Math.max(CONFIDENCE_FLOOR, value) * 100) / 100;
}
