/**
 * Every signal `/v1/signals` answers for a query, read page by page with an API key, latest event first (the
 * event date, else the day first seen; the higher id first on the same day): what the explorer's signals view
 * must show (docs/explorer.md, Signals), derived from the API's own answers. The explorer's `data=real|generated`
 * is no /v1 parameter: it keeps the signals whose `synthetic` says so.
 */
import type { TestApp } from './test-app.js';

export async function signalsByEvent(t: TestApp, explorerQuery = ''): Promise<any[]> {
  const params = new URLSearchParams(explorerQuery);
  const data = params.get('data');
  params.delete('data');
  const query = params.toString();
  const all: any[] = [];
  let cursor: string | undefined;
  do {
    const page = await t.get(
      `/v1/signals?limit=200${query ? `&${query}` : ''}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (page.status !== 200) throw new Error(`/v1/signals ${query}: ${page.status} ${page.body}`);
    all.push(...page.json.items);
    cursor = page.json.has_more ? page.json.next_cursor : undefined;
  } while (cursor);
  const day = (s: any) => s.event_date ?? s.first_seen_at.slice(0, 10);
  const kept = data === null ? all : all.filter((s) => s.synthetic === (data === 'generated'));
  return kept.sort((a, b) => (day(a) < day(b) ? 1 : day(a) > day(b) ? -1 : b.id - a.id));
}

/** How many of `signals` there are per value of `field` (family, type). */
export function countBy(signals: readonly any[], field: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const s of signals) counts[s[field]] = (counts[s[field]] ?? 0) + 1;
  return counts;
}
