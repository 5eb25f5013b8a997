/**
 * The integrity patterns of the demo data: what the generator makes on purpose so that every integrity type
 * (src/integrity/) has contracts it flags, and at what rate. The one place the generator reads them from, and
 * test/demo-integrity.test.ts derives its expected counts from; docs/integrity.md ("On the demo data") gives them as a
 * table. A pattern never gives a record a field it would not have: a check flags a pattern on fields the contract has.
 *
 * Two kinds. Rates of the base model, named here because a type's flags follow from them: one bidder, a base price
 * equal to the price, an urgent tender's short period. And deliberate patterns, each drawn from a random stream of its
 * own — (seed, pattern, contract), or (seed, block) for the schemes that span several contracts — so that adding or
 * tuning one moves no other draw: the rest of a contract is what it would be without it.
 */

/** The share of open and restricted procedures (OCDS `open`, `selective`) that draw one bidder (R018, single bid). */
export const ONE_BIDDER_SHARE = {
  /** Public works, whose tenders draw the most bidders. */
  works: 0.25,
  /** Goods, services and leases. */
  other: 0.4,
  /** Call-offs of a framework with several suppliers (art. 259.º): one to four of them bid, evenly. */
  callOff: 0.25,
} as const;

/** The share of direct awards (OCDS `direct`) whose base price is their price (PT-PRICE-BASE). */
export const DIRECT_BASE_AT_PRICE = 0.55;

/** The days a notice gives to submit proposals, [fewest, most], evenly (before a weekend moves the notice back). */
export const NOTICE_DAYS = {
  /** A concurso público for public works: works tenders give the longest periods. */
  tenderWorks: [30, 40],
  /** A concurso público for goods, services or leases. */
  tender: [20, 30],
  /** A concurso público urgente: short by design (CCP art. 155.º), so R003 flags every one. */
  urgent: [3, 10],
  /** A concurso limitado or a negotiation: two stages, longer. */
  restricted: [30, 50],
} as const;

/** Deliberate patterns on one contract: the share of the contracts each applies to (`of` says which). */
export const PATTERN_RATES = {
  /**
   * R003 and PT-R003-FENCE: of the concursos públicos (not urgent), a notice with far fewer days than its kind's.
   * For goods and services under Cardinal's 15 (both types flag); for public works 15 to 19 days, not short by
   * Cardinal's threshold but under the fence of works tenders (only PT-R003-FENCE flags).
   */
  shortPeriod: 0.05,
  /** PT-PRICE-BASE: of the competitive procedures (OCDS open, selective, limited), a price equal to the base price. */
  noSaving: 0.04,
  /** PT-COST-OVERRUN: of the closed contracts, an effective price 25 % to 60 % above the contract price. */
  overrun: 0.04,
  /**
   * PT-DELAY: of the closed contracts whose late closing still falls before the data's end, a closing at least
   * LATE.minDays and LATE.minShare of the execution period after the expected end.
   */
  late: 0.12,
  /**
   * R025: of the competitive public works procedures awarded to one supplier with two bidders or more, one losing
   * bidder is the works sector's cover bidder, a firm that bids often and never wins.
   */
  coverBid: 0.06,
  /**
   * R048: of the ajustes diretos for goods awarded to one supplier, the supplier is one of GENERALISTS general
   * traders, who sell whatever a buyer needs: fuel, food, furniture, computers.
   */
  generalist: 0.06,
} as const;

/** Closings on time: days after the expected end (signing + execution period), [earliest, latest], evenly. */
export const ON_TIME_DAYS = [-10, 25] as const;
/** A late closing: at least this many days after the expected end, and this share of the execution period. */
export const LATE = { minDays: 45, minShare: 0.3, spreadDays: 120 } as const;
/** An overrun's effective price over the contract price, [lowest, highest], evenly. */
export const OVERRUN_RATIO = [1.25, 1.6] as const;
/** The amendments of a contract without the overrun pattern add up to at most this ratio of its price. */
export const AMENDED_CEILING = 1.15;
/** A notice cut short (the shortPeriod pattern): days for public works, and for goods and services. */
export const SHORT_NOTICE_DAYS = { works: [15, 19], other: [6, 9] } as const;
/** How many general traders (the generalist pattern) there are. */
export const GENERALISTS = 3;

/**
 * Schemes over several contracts, planned per block of SCHEMES.block consecutive contracts (after the first, which
 * go to each municipality once): a block holds at most one scheme, of each kind with the probability given.
 */
export const SCHEMES = {
  block: 40,
  /**
   * PT-ART22-SPLIT: a council buys one thing in two ajustes diretos from one supplier, days apart, each under the
   * ceiling of its regime, together over it. Both contracts flag.
   */
  split: 0.2,
  /**
   * PT-ART113: a council awards one supplier three ajustes diretos of the same kind months apart, each over half the
   * ceiling: the third's earlier two reach the ceiling, and the third flags.
   */
  repeated: 0.2,
  /**
   * PT-CONCENTRATION: a parish gives one firm eight of its ten contracts of a year, most of the year's value. The
   * eight flag.
   */
  captive: 0.08,
} as const;

/** Of each scheme, how many contracts it makes and how many of them its type flags. */
export const SCHEME_SHAPE = {
  split: { contracts: 2, flagged: 2 },
  repeated: { contracts: 3, flagged: 1 },
  captive: { contracts: 10, flagged: 8 },
} as const;

export type SchemeKind = keyof typeof SCHEME_SHAPE;
