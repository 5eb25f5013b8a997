/**
 * The key format (docs/api.md, Key format): `sk_live_`, 40 random base62 characters, and a checksum — the CRC32
 * of those 40 characters in base62 (0-9 after A-Z a-z), padded with A to 6 — so that a scanner can recognise a real
 * key offline. Keys issued before the checksum keep working; a key whose checksum is wrong is refused as a wrong
 * key (401, and a strike against the address) without being looked up.
 */
import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret, parseKeySecret } from '../src/access/api-keys.js';
import { createKey } from '../src/admin/keys.js';
import { expectProblem } from './helpers/expectations.js';
import { startTestApp, type TestApp } from './helpers/test-app.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The checksum as docs/api.md defines it, written here from the text, not taken from the source. */
function documentedChecksum(random: string): string {
  let n = crc32(Buffer.from(random, 'ascii'));
  let out = '';
  for (let i = 0; i < 6; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

describe('key format', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('issues sk_live_ keys whose last 6 characters are the CRC32 of the 40 before them, and they work', async () => {
    for (let i = 0; i < 5; i++) {
      const { secret } = await createKey(t.store, { accountId: t.accounts.premium }, new Date(t.clock.now));
      const match = /^sk_live_([A-Za-z0-9]{40})([A-Za-z0-9]{6})$/.exec(secret);
      expect(match, secret.slice(0, 8)).not.toBeNull();
      expect(match?.[2]).toBe(documentedChecksum(match?.[1] ?? ''));
      expect((await t.get('/v1/me', { key: secret })).status).toBe(200);
    }
  });

  it('keeps accepting a key issued before the checksum (sk_live_ + 40)', async () => {
    let random = '';
    for (let i = 0; i < 40; i++) random += BASE62[randomInt(62)];
    const legacy = `sk_live_${random}`;
    await t.store.createApiKey({
      account_id: t.accounts.premium,
      lookup: random.slice(0, 12),
      hash: hashSecret(legacy),
      label: 'issued before the checksum',
      scopes: ['indicators:read', 'signals:read', 'procurement:read', 'alerts:read'] as never,
      expires_at: null,
      now: new Date(t.clock.now).toISOString(),
    });
    const res = await t.get('/v1/me', { key: legacy });
    expect(res.status, res.body).toBe(200);
    expect(res.json.account_id).toBe(t.accounts.premium);
  });

  const wrongChecksumIsAStrike =
    'refuses a key with a wrong checksum before any look-up, as a wrong key that costs the address a strike';
  it(wrongChecksumIsAStrike, async () => {
    const { secret } = await createKey(t.store, { accountId: t.accounts.premium }, new Date(t.clock.now));
    const random = secret.slice(8, 48);
    const wrong = documentedChecksum(random) === 'AAAAAA' ? 'AAAAAB' : 'AAAAAA';
    const mistyped = `sk_live_${random}${wrong}`;
    // Nothing to look up: the text is not one of our keys.
    expect(parseKeySecret(mistyped)).toBeUndefined();
    expect(parseKeySecret(secret)).toBeDefined();
    const fresh = await startTestApp();
    try {
      for (let i = 0; i < 60; i++) expectProblem(await fresh.get('/v1/me', { key: mistyped }), 401, 'invalid-auth');
      expectProblem(await fresh.get('/v1/me', { key: mistyped }), 429, 'rate-limited');
    } finally {
      await fresh.close();
    }
  });
});
