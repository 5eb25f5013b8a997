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

interface Entry {
  readonly rendered: Rendered;
  readonly size: number;
  /** Read since it was inserted or last spared: eviction gives it a second chance (CLOCK). */
  recent: boolean;
}

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  get(key: string): Rendered | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    // A flag, not a re-insertion: a hit is on every repeated request, an eviction only when the cache is full.
    entry.recent = true;
    return entry.rendered;
  }

  set(key: string, rendered: Rendered): void {
    const size = rendered.body.length + (rendered.body.length === rendered.json.length ? 0 : rendered.json.length);
    if (size > MAX_BYTES / 16) return; // one huge answer must not flush everything else
    const previous = this.#entries.get(key);
    if (previous) {
      this.#entries.delete(key);
      this.#bytes -= previous.size;
    }
    this.#entries.set(key, { rendered, size, recent: false });
    this.#bytes += size;
    this.#evict();
  }

  /** Oldest first; an entry read since its last pass goes to the back once instead of out. */
  #evict(): void {
    let spared = 0;
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= MAX_ENTRIES && this.#bytes <= MAX_BYTES) return;
      this.#entries.delete(key);
      if (entry.recent && spared < this.#entries.size) {
        entry.recent = false;
        spared++;
        this.#entries.set(key, entry);
      } else {
        this.#bytes -= entry.size;
      }
    }
  }
}

/**
 * What an answer may depend on besides its input: the plan's value kind and history depth, and the day (a bulk
 * file's measure too, dataset-files.ts).
 */
export function variantOf(operation: string, plan: PlanRecord, day: string, format: string): string {
  return `${operation}|${plan.raw_values ? 'raw' : 'norm'}|${plan.history_years}|${day}|${format}`;
}

/**
 * The key of an answer of a data operation: its variant (history windows and "open" notices move with the
 * date), then the validated input.
 */
export function responseKey(
  operation: string,
  plan: PlanRecord,
  day: string,
  format: string,
  input: Record<string, unknown>,
): string {
  const keys = Object.keys(input).sort();
  let text = variantOf(operation, plan, day, format);
  for (const k of keys) text += `|${k}=${JSON.stringify(input[k])}`;
  return text;
}

/**
 * The key of a request as received (REST: the URL), before validation: the same text validates to the same
 * input. `@` cannot begin an input key's segment (`|name=`), so the two kinds of key never meet.
 */
export function requestResponseKey(
  operation: string,
  plan: PlanRecord,
  day: string,
  format: string,
  encoding: string,
  request: string,
): string {
  return `${variantOf(operation, plan, day, format)}|@${encoding} ${request}`;
}
