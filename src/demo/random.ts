/**
 * Seeded randomness for the demo data. Two kinds: a sequential PRNG for the few draws made once per series
 * (offsets, trends), and hash-indexed draws for per-period noise, so that the value of a period depends only on
 * (seed, series, period) and not on how long the generated window is: a later run that moves the window by a
 * month only appends points and never rewrites history.
 */

/** mulberry32: a tiny 32-bit PRNG, identical on every platform; good enough for synthetic data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The murmur3 finalizer: a bijection on 32-bit integers that spreads every input bit. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit seed from any parts (FNV-1a over their text, then mixed). */
export function hashSeed(...parts: (string | number)[]): number {
  const text = parts.join('\u0001');
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix(h);
}

/** A uniform number in [0, 1) that depends only on the seed and the index n. */
export function uniformAt(seed: number, n: number): number {
  return fmix((seed ^ fmix((n + 0x9e3779b9) >>> 0)) >>> 0) / 4294967296;
}

/** A standard normal number that depends only on the seed and the index n (Box–Muller). */
export function normalAt(seed: number, n: number): number {
  const u1 = Math.max(uniformAt(seed, 2 * n), 1e-12);
  const u2 = uniformAt(seed, 2 * n + 1);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}

/** Sequential draws from one seed. */
export class Rng {
  readonly #next: () => number;

  constructor(seed: number) {
    this.#next = mulberry32(seed);
  }

  next(): number {
    return this.#next();
  }

  normal(): number {
    const u1 = Math.max(this.#next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * this.#next());
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.#next() * (hi - lo + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#next() * items.length)];
  }

  /** A shuffled copy (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.#next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}
