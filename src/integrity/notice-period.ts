/**
 * The submission period of a contract's procedure: from its notice's publication to its proposal deadline, in
 * calendar days (the dates carry no time: Cardinal's whole days). Read once per answer (`once`): both R003 checks
 * read it, and a buyer's answer preloads a page's notices in one read (`preloadNotices`).
 */

import { daysBetween } from '../lib/calendar.js';
import type { AnnouncementRecord, ContractRecord } from '../store/procurement-records.js';
import type { Said } from './assessment.js';
import { type CheckContext, once } from './check.js';

export interface SubmissionPeriod {
  notice: AnnouncementRecord;
  published_on: string;
  deadline_on: string;
  days: number;
}

/** Why the submission period is unknown, as a finding says it: what is missing, then the consequence. */
export function periodUnknown(missing: Said): Said {
  return {
    en: `${missing.en} The submission period is unknown.`,
    pt: `${missing.pt} O prazo para apresentação de propostas é desconhecido.`,
  };
}

/** The period, or why it cannot be told (a sentence naming the missing field). */
export type PeriodAnswer = { period: SubmissionPeriod; missing?: undefined } | { period?: undefined; missing: Said };

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
      return {
        missing: {
          en: `The record names notice ${c.announcement_number}, which the service does not hold.`,
          pt: `O registo indica o anúncio ${c.announcement_number}, que o serviço não tem.`,
        },
      };
    }
    const none = c.ocds_method === 'direct' || c.ocds_method === 'limited';
    const methodPt = c.ocds_method === 'direct' ? 'direto' : 'limitado';
    return {
      missing: {
        en: `The record names no procurement notice${none ? ` (a ${c.ocds_method} procedure has none)` : ''}.`,
        pt: `O registo não indica nenhum anúncio${none ? ` (um procedimento ${methodPt} não o tem)` : ''}.`,
      },
    };
  }
  if (notice.published_on === null) {
    return {
      missing: {
        en: `Notice ${notice.source_id} gives no publication date.`,
        pt: `O anúncio ${notice.source_id} não indica a data de publicação.`,
      },
    };
  }
  if (notice.deadline_on === null) {
    return {
      missing: {
        en: `Notice ${notice.source_id} gives no proposal deadline.`,
        pt: `O anúncio ${notice.source_id} não indica o prazo para apresentação de propostas.`,
      },
    };
  }
  const days = daysBetween(notice.published_on, notice.deadline_on);
  if (days < 0) {
    return {
      missing: {
        en:
          `Notice ${notice.source_id} gives a proposal deadline (${notice.deadline_on}) before its publication ` +
          `(${notice.published_on}): the dates contradict each other.`,
        pt:
          `O anúncio ${notice.source_id} indica um prazo para propostas (${notice.deadline_on}) anterior à sua ` +
          `publicação (${notice.published_on}): as datas contradizem-se.`,
      },
    };
  }
  return { period: { notice, published_on: notice.published_on, deadline_on: notice.deadline_on, days } };
}
