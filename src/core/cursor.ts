/**
 * Cursors: opaque, HMAC-signed keyset positions bound to the operation and to its filters. A cursor edited by
 * hand, taken from another endpoint or replayed with other filters fails the signature → 400 `invalid-cursor`.
 */
import { createHmac, createSecretKey, type KeyObject, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../lib/errors.js';

const MAC_BYTES = 16;

export class CursorCodec {
  // A KeyObject made once: an HMAC over a string key would import the key again on every cursor.
  readonly #key: KeyObject;

  constructor(secret: string) {
    this.#key = createSecretKey(Buffer.from(secret));
  }

  encode(scope: string, position: unknown): string {
    const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
    return `${payload}.${this.#mac(scope, payload).toString('base64url')}`;
  }

  decode(scope: string, cursor: string): unknown {
    const dot = cursor.indexOf('.');
    const payload = cursor.slice(0, dot);
    const macText = cursor.slice(dot + 1);
    const mac = Buffer.from(macText, 'base64url');
    const expected = this.#mac(scope, payload);
    // Base64 leaves spare bits in the last character: only the canonical spelling of a cursor is accepted,
    // so that no edited cursor passes.
    const canonical =
      mac.toString('base64url') === macText && Buffer.from(payload, 'base64url').toString('base64url') === payload;
    if (dot < 1 || !canonical || mac.length !== MAC_BYTES || !timingSafeEqual(mac, expected)) {
      throw new ApiError('invalid-cursor', {
        detail:
          'The cursor was not issued by this endpoint for these filters. Repeat the first request without `cursor`.',
      });
    }
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  }

  #mac(scope: string, payload: string): Buffer {
    return createHmac('sha256', this.#key).update(scope).update('\n').update(payload).digest().subarray(0, MAC_BYTES);
  }
}

/** The part of an input that a cursor is bound to: every filter, but not the cursor or the page size. */
export function cursorScope(operation: string, input: Record<string, unknown>): string {
  const filters = Object.keys(input)
    .filter((k) => k !== 'cursor' && k !== 'limit')
    .sort()
    .map((k) => [k, input[k]]);
  return `${operation}\n${JSON.stringify(filters)}`;
}
