/**
 * Synthetic Portuguese tax numbers for the demo: valid (mod-11 check digit), stable for a seed, and unique by
 * construction. Each family of entities owns a disjoint range of prefixes; inside a family, the n-th entity gets
 * the n-th value of a seeded permutation of the range (a small Feistel network with cycle walking), so two
 * entities never share a number and consecutive entities do not get consecutive numbers.
 *
 * The families (entities.ts) use ranges the tax authority has not reached yet, so that demo records do not land
 * on the numbers of real companies, bodies or people (in a store that also holds real imports, an entity is
 * keyed by its number): companies 590–599 (legal persons are numbered 50x–51x so far), public bodies 690–699,
 * people 3 (the series after 1 and 2). None of them can be a municipality's number (500–507, 511, 512).
 */
import { hashSeed, uniformAt } from '../random.js';

/** The check digit of the first eight digits: 11 − (Σ dᵢ·(9−i) mod 11), or 0 when that is 10 or 11. */
export function nifCheckDigit(first8: string): number {
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += (first8.charCodeAt(i) - 48) * (9 - i);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidNif(nif: string): boolean {
  return /^\d{9}$/.test(nif) && nifCheckDigit(nif.slice(0, 8)) === nif.charCodeAt(8) - 48;
}

/**
 * A family of tax numbers: `prefixes` (all of the same length) followed by free digits up to eight, then the
 * check digit. Capacity = prefixes × 10^(8 − prefix length).
 */
export class NifFamily {
  readonly #prefixes: readonly string[];
  readonly #span: number;
  readonly #size: number;
  readonly #bits: number;
  readonly #keys: number[];

  constructor(seed: number, name: string, prefixes: readonly string[]) {
    const width = prefixes[0].length;
    if (prefixes.some((p) => p.length !== width) || width >= 8) throw new Error(`NIF family ${name}: bad prefixes`);
    this.#prefixes = prefixes;
    this.#span = 10 ** (8 - width);
    this.#size = prefixes.length * this.#span;
    // A balanced Feistel network over 2·half bits ≥ size; values ≥ size are walked again (cycle walking).
    let half = 1;
    while (2 ** (2 * half) < this.#size) half++;
    this.#bits = half;
    this.#keys = [0, 1, 2, 3].map((round) => hashSeed(seed, 'nif', name, round));
  }

  get capacity(): number {
    return this.#size;
  }

  /** The n-th tax number of the family (0 ≤ n < capacity); distinct n give distinct numbers. */
  nif(n: number): string {
    if (!(n >= 0 && n < this.#size && Number.isInteger(n))) throw new Error(`NIF family: index ${n} out of range`);
    let x = n;
    do x = this.#permute(x);
    while (x >= this.#size);
    const prefix = this.#prefixes[Math.floor(x / this.#span)];
    const body = prefix + String(x % this.#span).padStart(8 - prefix.length, '0');
    return body + nifCheckDigit(body);
  }

  #permute(x: number): number {
    const half = this.#bits;
    const mask = 2 ** half;
    let left = Math.floor(x / mask);
    let right = x % mask;
    for (const key of this.#keys) {
      const next = (left + Math.floor(uniformAt(key, right) * mask)) % mask;
      left = right;
      right = next;
    }
    return left * mask + right;
  }
}
