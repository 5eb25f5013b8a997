/**
 * The charge: one unit of the monthly quota, reserved before a call runs and settled once its answer is known —
 * committed when the answer is sent, given back when the call is refused or fails, or answers 304 (docs/api.md,
 * Limits and quota). Every path that spends quota takes one: operation calls and bulk files alike.
 */
import type { Caller } from '../access/caller.js';
import type { Counters, QuotaReservation } from '../access/counters.js';
import type { DailyUsage } from '../access/daily-usage.js';
import { ApiError, toApiError } from '../lib/errors.js';
import type { LimitState } from '../lib/limit-state.js';
import type { UsageChannel } from '../store/console/console-records.js';
import { type Calendar, nextMonthStart } from './calendar.js';

export interface Charge {
  /** The monthly quota's state to report: after this call, or with its unit back once refunded. */
  readonly month: LimitState | undefined;
  /** Counts the unit for good. A charge settles once: after a commit or a refund, both do nothing. */
  commit(): void | Promise<void>;
  /** Gives the unit back. */
  refund(): void | Promise<void>;
}

/** The charge of a free call (`me`): nothing reserved, nothing to settle. */
export const FREE_CALL: Charge = { month: undefined, commit() {}, refund() {} };

export interface QuotaDeps {
  readonly counters: Counters;
  readonly baseUrl: string;
  /** Charged requests per day and channel (the console's chart); absent, they are not split. */
  readonly dailyUsage?: DailyUsage;
}

export class Quota {
  readonly #deps: QuotaDeps;

  constructor(deps: QuotaDeps) {
    this.#deps = deps;
  }

  /** Reserves one unit of the month's quota, or refuses (402). A promise only when the counters answer with one. */
  reserve(caller: Caller, channel: UsageChannel, calendar: Calendar, nowMs: number): Charge | Promise<Charge> {
    const limit = caller.plan.requests_per_month;
    const reservation = this.#deps.counters.reserveQuota(caller.account.id, calendar.period, limit);
    const charge = (settled: QuotaReservation) => {
      const month = this.#stateAfter(settled, limit, calendar, nowMs);
      return new ReservedUnit(this.#deps, caller.account.id, calendar, channel, month);
    };
    return reservation instanceof Promise ? reservation.then(charge) : charge(reservation);
  }

  #stateAfter(reservation: QuotaReservation, limit: number | null, calendar: Calendar, nowMs: number) {
    const secondsLeft = Math.max(1, Math.ceil((calendar.periodEndMs - nowMs) / 1000));
    const remaining = limit === null ? 0 : Math.max(0, limit - reservation.used);
    const month: LimitState | undefined = limit === null ? undefined : { limit, remaining, resetSeconds: secondsLeft };
    if (!reservation.granted) {
      throw new ApiError('quota-exceeded', {
        detail: `The monthly quota of ${limit} requests is used; it resets on ${nextMonthStart(calendar.end)} (UTC).`,
        retryAfter: secondsLeft,
        featureKey: 'requests_per_month',
        upgradeUrl: `${this.#deps.baseUrl}/docs#plans`,
        quota: month,
      });
    }
    return month;
  }
}

/** One reserved unit: committed under the channel that spent it (the console's usage split), or given back. */
class ReservedUnit implements Charge {
  readonly #deps: QuotaDeps;
  readonly #accountId: number;
  readonly #calendar: Calendar;
  readonly #channel: UsageChannel;
  #month: LimitState | undefined;
  #settled = false;

  constructor(deps: QuotaDeps, accountId: number, calendar: Calendar, channel: UsageChannel, month?: LimitState) {
    this.#deps = deps;
    this.#accountId = accountId;
    this.#calendar = calendar;
    this.#channel = channel;
    this.#month = month;
  }

  get month(): LimitState | undefined {
    return this.#month;
  }

  commit(): void | Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const counted = this.#deps.counters.commitQuota(this.#accountId, this.#calendar.period);
    if (!(counted instanceof Promise)) return this.#countDay();
    return counted.then(
      () => this.#countDay(),
      (error) => {
        this.#settled = false; // not counted: a refund may still give it back
        throw error;
      },
    );
  }

  refund(): void | Promise<void> {
    if (this.#settled) return;
    this.#settled = true;
    const month = this.#month;
    if (month && month.remaining < month.limit) this.#month = { ...month, remaining: month.remaining + 1 };
    return this.#deps.counters.refundQuota(this.#accountId, this.#calendar.period);
  }

  #countDay(): void {
    this.#deps.dailyUsage?.add(this.#accountId, this.#calendar.day, this.#channel);
  }
}

/** Gives the unit back after `error`; the refusal to answer with, telling the quota's state. */
export async function refundedError(charge: Charge, error: unknown): Promise<ApiError> {
  await charge.refund();
  return toApiError(error).withQuota(charge.month);
}

/** Builds a charged call's answer inside its charge window: committed once built, given back if building fails. */
export async function buildCharged<R>(charge: Charge, build: () => R): Promise<R> {
  try {
    const answer = build();
    await charge.commit();
    return answer;
  } catch (error) {
    throw await refundedError(charge, error);
  }
}

/**
 * The charges of calls answered as one (the reads an MCP prompt embeds: docs/mcp.md, Counting): each unit stays
 * reserved until the whole answer is built, then all are committed; all are given back if any call fails first.
 */
export class HeldCharges {
  readonly #charges: Charge[] = [];

  hold(charge: Charge): void {
    this.#charges.push(charge);
  }

  /** The quota's state to report: the last held charge's (every unit of the answer reserved). */
  get month(): LimitState | undefined {
    return this.#charges.at(-1)?.month;
  }

  /** Gives every unit back (a committed one stays counted). */
  async refund(): Promise<void> {
    for (const charge of this.#charges) await charge.refund();
  }

  /** Builds the answer, then commits every unit; a failure gives back every unit not yet counted. */
  async build<R>(build: () => R): Promise<R> {
    try {
      const answer = build();
      for (const charge of this.#charges) await charge.commit();
      return answer;
    } catch (error) {
      await this.refund();
      throw toApiError(error).withQuota(this.month);
    }
  }
}
