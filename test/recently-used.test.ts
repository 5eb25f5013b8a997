/** The bounded hold of src/lib/recently-used.ts: what it keeps, what it lets go, and in which order. */
import { describe, expect, it } from 'vitest';
import { RecentlyUsed } from '../src/lib/recently-used.js';

/** A read that counts its calls and answers `value` (whose weight is its length) once released. */
function reader(value: string) {
  let release = () => {};
  const read = {
    calls: 0,
    release: () => release(),
    read: () => {
      read.calls++;
      return new Promise<string>((resolve) => {
        release = () => resolve(value);
      });
    },
  };
  return read;
}
const weight = (value: string) => value.length;
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('RecentlyUsed', () => {
  it('reads a key once, then answers from what it holds', async () => {
    const held = new RecentlyUsed(10);
    const a = reader('aa');
    const first = held.get('a', a.read, weight);
    a.release();
    expect(await first).toBe('aa');
    expect(await held.get('a', a.read, weight)).toBe('aa');
    expect(a.calls).toBe(1);
  });

  it('lets the least recently used go past the limit, never the value just read', async () => {
    const held = new RecentlyUsed(10);
    const [a, big, d] = [reader('a'), reader('b'.repeat(20)), reader('d')];
    const pending = held.get('big', big.read, weight);
    for (const [key, r] of [
      ['a', a],
      ['d', d],
    ] as const) {
      const got = held.get(key, r.read, weight);
      r.release();
      await got;
    }
    // Order of use: big (still being read), a, d. Once read, big outweighs the limit alone: a and d go, big stays.
    big.release();
    await pending;
    await settled();
    await held.get('big', big.read, weight);
    expect(big.calls).toBe(1);
    for (const [key, r] of [
      ['a', a],
      ['d', d],
    ] as const) {
      const again = held.get(key, r.read, weight);
      r.release();
      await again;
      expect(r.calls, key).toBe(2);
    }
  });

  it('forgets a read that failed, so that the next asks again', async () => {
    const held = new RecentlyUsed(10);
    let calls = 0;
    const failing = () => {
      calls++;
      return Promise.reject(new Error('store away'));
    };
    await expect(held.get('k', failing, weight)).rejects.toThrow('store away');
    await settled();
    await expect(held.get('k', failing, weight)).rejects.toThrow('store away');
    expect(calls).toBe(2);
  });
});
