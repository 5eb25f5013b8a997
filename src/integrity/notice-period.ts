/**
 * The submission period of a contract's procedure: from its notice's publication to its proposal deadline, in
 * calendar days (the dates carry no time: Cardinal's whole days). Read once per answer (`once`): both R003 checks
 * read it, and a buyer's answer preloads a page's notices in one read (`preloadNotices`).
 */
import { daysBetween } from '../lib/calendar.js';
import type { AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import { type CheckContext, once } from './check.js';

export interface SubmissionPeriod {
  notice: AnnouncementRecord;
  published_on: string;
  deadline_on: string;
  days: number;
}

/** The period, or why it cannot be told (a sentence naming the missing field). */
export type PeriodAnswer = { period: SubmissionPeriod; missing?: undefined } | { period?: undefined; missing: string };

const noticeKey = (id: number) => `notice:${id}`;

function readNotice(ctx: CheckContext, id: number): Promise<AnnouncementRecord | undefined> {
  return once(ctx, noticeKey(id), async () => (await ctx.store.getAnnouncements([id]))[0]);
}

/** Reads the notices of many contracts in one store read, for the checks to find (a buyer's answer). */
export async function preloadNotices(ctx: CheckContext, contracts: readonly ContractRecord[]): Promise<void> {
  const memo = ctx.memo;
  if (!memo) return;
  const ids = [...new Set(contracts.flatMap((c) => c.announcement_id ?? []))].filter((id) => !memo.has(noticeKey(id)));
  if (ids.length === 0) return;
  const found = new Map((await ctx.store.getAnnouncements(ids)).map((n) => [n.id, n]));
  for (const id of ids) memo.set(noticeKey(id), Promise.resolve(found.get(id)));
}

export async function submissionPeriod(c: ContractRecord, ctx: CheckContext): Promise<PeriodAnswer> {
  const notice = c.announcement_id === null ? undefined : await readNotice(ctx, c.announcement_id);
  if (!notice) {
    if (c.announcement_number !== null) {
      return { missing: `The record names notice ${c.announcement_number}, which the service does not hold.` };
    }
    const why =
      c.ocds_method === 'direct' || c.ocds_method === 'limited' ? ` (a ${c.ocds_method} procedure has none)` : '';
    return { missing: `The record names no procurement notice${why}.` };
  }
  if (notice.published_on === null) return { missing: `Notice ${notice.source_id} gives no publication date.` };
  if (notice.deadline_on === null) return { missing: `Notice ${notice.source_id} gives no proposal deadline.` };
  const days = daysBetween(notice.published_on, notice.deadline_on);
  if (days < 0) {
    return {
      missing:
        `Notice ${notice.source_id} gives a proposal deadline (${notice.deadline_on}) before its publication ` +
        `(${notice.published_on}): the dates contradict each other.`,
    };
  }
  return { period: { notice, published_on: notice.published_on, deadline_on: notice.deadline_on, days } };
}
