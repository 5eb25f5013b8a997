/**
 * Answers of `cache: 'data'` operations, kept per data version: the same input, plan variant and day give the
 * same bytes, so the handler, the serialisation and the hash run once. Auth, limits, quota and validation still
 * run on every request (they happen before the cache is consulted). Bounded by entries and bytes; least
 * recently used first out.
 */
import type { PlanRecord } from '../store/records.js';

export interface Rendered {
  readonly value: unknown;
  readonly json: string;
  /** What is sent: the JSON, or an alternative rendering (CSV), as bytes. */
  readonly body: Buffer;
  readonly etag: string;
}

const MAX_ENTRIES = 4_096;
const MAX_BYTES = 64 * 1024 * 1024;

export class ResponseCache {
  readonly #entries = new Map<string, Rendered>();
  #bytes = 0;

  get(key: string): Rendered | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      // Re-insert to mark it recently used (a Map iterates in insertion order).
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, rendered: Rendered): void {
    const size = rendered.body.length + (rendered.body.length === rendered.json.length ? 0 : rendered.json.length);
    if (size > MAX_BYTES / 16) return; // one huge answer must not flush everything else
    this.#entries.set(key, rendered);
    this.#bytes += size;
    for (const [oldKey, old] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#bytes <= MAX_BYTES) break;
      this.#entries.delete(oldKey);
      this.#bytes -= old.body.length + (old.body.length === old.json.length ? 0 : old.json.length);
    }
  }
}

/**
 * What an answer of a data operation may depend on besides its input: the plan's value kind and history
 * depth, and the day (history windows and "open" notices move with the date).
 */
export function responseKey(operation: string, plan: PlanRecord, day: string, format: string, input: Record<string, unknown>): string {
  const keys = Object.keys(input).sort();
  let text = `${operation}|${plan.raw_values ? 'raw' : 'norm'}|${plan.history_years}|${day}|${format}`;
  for (const k of keys) text += `|${k}=${JSON.stringify(input[k])}`;
  return text;
}
