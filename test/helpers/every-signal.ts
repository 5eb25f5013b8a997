/** Every signal a store holds, keys included (the API does not show keys), read page by page as the store lists. */
import type { SignalRecord } from '../../src/store/signal-records.js';
import type { Store } from '../../src/store/store.js';

const PAGE = 500;

export async function everySignal(store: Pick<Store, 'listSignals'>): Promise<SignalRecord[]> {
  const out: SignalRecord[] = [];
  let after: { at: string; id: number } | undefined;
  for (;;) {
    const page = await store.listSignals({}, { after, limit: PAGE });
    out.push(...page);
    const last = page.at(-1);
    if (page.length < PAGE || !last) return out;
    after = { at: last.last_seen_at, id: last.id };
  }
}
