import { describe, expect, it } from 'vitest';
import { CursorCodec, cursorScope } from '../src/core/cursor.js';
import { ApiError } from '../src/lib/errors.js';

const codec = new CursorCodec('test-secret');
const scope = cursorScope('municipalities_search', { q: 'vila', limit: 5 });

function kindOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof ApiError ? error.kind : 'other';
  }
  return undefined;
}

describe('cursors', () => {
  it('round-trips a position under the same operation and filters, whatever the page size', () => {
    const cursor = codec.encode(scope, ['2024-01-31', 42]);
    expect(codec.decode(cursorScope('municipalities_search', { q: 'vila', limit: 50 }), cursor)).toEqual([
      '2024-01-31',
      42,
    ]);
  });

  it('refuses every single-character edit of a cursor', () => {
    const cursor = codec.encode(scope, '1106');
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < cursor.length; i++) {
      for (const c of alphabet) {
        if (c === cursor[i]) continue;
        const edited = cursor.slice(0, i) + c + cursor.slice(i + 1);
        expect(
          kindOf(() => codec.decode(scope, edited)),
          edited,
        ).toBe('invalid-cursor');
      }
    }
  });

  it('refuses a cursor of other filters, of another operation, or signed with another secret', () => {
    const cursor = codec.encode(scope, '1106');
    expect(kindOf(() => codec.decode(cursorScope('municipalities_search', { q: 'porto' }), cursor))).toBe(
      'invalid-cursor',
    );
    expect(kindOf(() => codec.decode(cursorScope('indicators_list', { q: 'vila' }), cursor))).toBe('invalid-cursor');
    expect(kindOf(() => new CursorCodec('other').decode(scope, cursor))).toBe('invalid-cursor');
    expect(kindOf(() => codec.decode(scope, 'no-dot-at-all'))).toBe('invalid-cursor');
  });
});
