/**
 * Values kept by key, the least recently used dropped first once their weights pass `limit`. A read that fails is
 * not kept, so that the next request tries again.
 */
export class RecentlyUsed {
  readonly #values = new Map<string, { value: Promise<unknown>; weight: number }>();
  #weight = 0;

  constructor(private readonly limit: number) {}

  get<T>(key: string, read: () => Promise<T>, weight: (value: T) => number): Promise<T> {
    const kept = this.#values.get(key);
    if (kept) {
      // Map keeps insertion order: the one used now moves to the end, the first is the least recently used.
      this.#values.delete(key);
      this.#values.set(key, kept);
      return kept.value as Promise<T>;
    }
    const entry = { value: read() as Promise<unknown>, weight: 0 };
    this.#values.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.#values.get(key) !== entry) return;
        entry.weight = weight(value as T);
        this.#weight += entry.weight;
        for (const [oldest, { weight: w }] of this.#values) {
          if (this.#weight <= this.limit) break;
          // The value just read stays, however much it weighs; those older and newer than it may go.
          if (oldest === key) continue;
          this.#values.delete(oldest);
          this.#weight -= w;
        }
      },
      () => {
        if (this.#values.get(key) === entry) this.#values.delete(key);
      },
    );
    return entry.value as Promise<T>;
  }
}
