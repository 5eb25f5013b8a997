/**
 * The explorer's one request of its own (docs/explorer.md, Signals): the signals that `/v1/signals` answers for
 * the same filters, ordered by event date instead of detection time — "what happened lately" — with how many
 * match in all, per family and per type. `/v1/signals` orders by `last_seen_at` (a watermark for clients that
 * poll); a one-off import detects years of events at one instant, so its newest detected are not its latest events.
 *
 * It runs signals_list's own handler page after page (its filters, its rows) and keeps the `limit` latest events:
 * not on /v1, A2A or MCP, but through the same core (plan, domain, quota: one request, the answer cache). `data`
 * keeps the signals detected from real data, or from generated data, so a view never mixes them.
 */
import { type TObject, Type } from '@sinclair/typebox';
import type { OperationContext, Paging } from '../../core/context.js';
import { type AnyOperation, defineOperation } from '../../core/operation.js';
import { StringEnum } from '../../core/schemas.js';
import { takeTurn } from '../../lib/turns.js';

export const LATEST_SIGNALS_PATH = '/signals/latest';
/** The most a view asks for: five of /v1/signals' pages. */
export const MAX_LATEST = 1000;
/** Rows read from signals_list per call while walking it. */
const STEP = 1000;

interface Summary {
  id: number;
  family: string;
  type: string;
  event_date: string | null;
  first_seen_at: string | null;
  last_seen_at: string | null;
  synthetic: boolean;
}

/** When a signal's event happened: its event date, or the day it was first seen when it has none. */
export function eventDay(s: Summary): string {
  return s.event_date ?? s.first_seen_at?.slice(0, 10) ?? '';
}

/** Latest event first; the same day: the higher id (the later detected) first. */
function byEvent(a: Summary, b: Summary): number {
  const da = eventDay(a);
  const db = eventDay(b);
  return da < db ? 1 : da > db ? -1 : b.id - a.id;
}

export function latestSignalsOperation(signalsList: AnyOperation): AnyOperation {
  const { cursor: _cursor, limit: _limit, ...filters } = (signalsList.input as TObject).properties;
  return defineOperation({
    name: 'explore_latest_signals',
    title: 'Latest signals by event date (explorer)',
    summary: 'The signals of /v1/signals for the same filters, latest event first, with the counts of all that match.',
    description:
      'What the explorer’s signals view draws: the signals /v1/signals answers for the same filters, the latest ' +
      'event first, with how many match in all, per family and per type.',
    domain: signalsList.domain,
    scope: signalsList.scope,
    input: Type.Object(
      {
        ...filters,
        data: Type.Optional(
          StringEnum(['real', 'generated'] as const, {
            description: 'Only the signals detected from real data, or only those from generated data.',
          }),
        ),
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: MAX_LATEST,
            default: MAX_LATEST,
            description: `How many, 1 to ${MAX_LATEST}.`,
          }),
        ),
      },
      { additionalProperties: false },
    ),
    output: Type.Object({
      items: Type.Array(signalsList.output.properties.items.items),
      matched: Type.Integer({ description: 'How many signals match the filters in all.' }),
      families: Type.Record(Type.String(), Type.Integer(), { description: 'How many match, per family.' }),
      types: Type.Record(Type.String(), Type.Integer(), { description: 'How many match, per type.' }),
    }),
    rest: { path: LATEST_SIGNALS_PATH },
    cache: 'data',
    examples: [],
    async handler(input: Record<string, unknown>, ctx: OperationContext) {
      const limit = typeof input.limit === 'number' ? input.limit : MAX_LATEST;
      const { limit: _, data, ...query } = input;
      const wanted = (s: Summary) => data === undefined || s.synthetic === (data === 'generated');
      let kept: Summary[] = [];
      let matched = 0;
      const families: Record<string, number> = {};
      const types: Record<string, number> = {};
      let after: unknown;
      for (;;) {
        // A page per turn of the event loop: on SQLite each read answers at once (docs/architecture.md, Long work).
        await takeTurn();
        const walk = walker(after);
        const page = (await signalsList.handler(query, { ...ctx, paging: walk.paging })) as {
          items: Summary[];
          has_more: boolean;
        };
        const items = page.items.filter(wanted);
        for (const s of items) {
          matched++;
          families[s.family] = (families[s.family] ?? 0) + 1;
          types[s.type] = (types[s.type] ?? 0) + 1;
        }
        kept.push(...items);
        // Sorted and cut once the buffer holds twice the answer: memory stays bounded whatever matches.
        if (kept.length >= 2 * limit) kept = kept.sort(byEvent).slice(0, limit);
        if (!page.has_more) break;
        after = walk.last();
      }
      return { items: kept.sort(byEvent).slice(0, limit), matched, families, types };
    },
  });
}

/** Paging that hands signals_list its position back as it is (no cursor to sign: the walk never leaves here). */
function walker(after: unknown): { paging: Paging; last: () => unknown } {
  let last: unknown;
  return {
    paging: {
      limit: STEP,
      after,
      page<T>(rows: T[], positionOf: (row: T) => unknown) {
        const items = rows.slice(0, STEP);
        if (items.length > 0) last = positionOf(items[items.length - 1]);
        return { items, next_cursor: null, has_more: rows.length > STEP };
      },
    },
    last: () => last,
  };
}
