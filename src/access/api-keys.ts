/**
 * API key secrets (docs/api.md, Key format): `sk_live_` + 40 random base62 characters (238 bits) + a 6-character
 * checksum, the CRC32 of those 40 characters in base62 (padded with its zero digit, `A`), as GitHub's tokens carry one:
 * a secret
 * scanner can tell a real key from random text without calling us, and a mistyped key is refused before the
 * store is read. Keys issued before the checksum (`sk_live_` + 40) keep working.
 *
 * The store keeps only the first 12 random characters (to find the key) and a SHA-256 of the whole secret (to
 * check it, in constant time). A secret is shown once, when created, and never logged.
 */
import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const KEY_PREFIX = 'sk_live_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const LOOKUP_LENGTH = 12;
/** A key of either format: the random part, then the checksum when there is one. */
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}([A-Za-z0-9]{${RANDOM_LENGTH}})([A-Za-z0-9]{${CHECKSUM_LENGTH}})?$`);

export interface NewKeySecret {
  secret: string;
  lookup: string;
  hash: string;
}

export function generateKeySecret(): NewKeySecret {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  const secret = KEY_PREFIX + random + checksumOf(random);
  return { secret, lookup: lookupOf(secret), hash: hashSecret(secret) };
}

/**
 * The lookup part of a well-formed secret, or undefined when the text cannot be one of our keys: the wrong shape,
 * or a checksum that does not match (no store is read for it, and it counts as a failed credential).
 */
export function parseKeySecret(text: string): { lookup: string; hash: string } | undefined {
  const shaped = shapedKeySecret(text);
  return shaped && checksumHolds(shaped) ? { lookup: shaped.lookup, hash: shaped.hash } : undefined;
}

/** A text of a key's shape, its checksum not yet checked (`checksumHolds`); undefined when it has not the shape. */
export interface ShapedKeySecret {
  readonly lookup: string;
  readonly hash: string;
  readonly random: string;
  readonly checksum: string | undefined;
}

/**
 * `parseKeySecret` in two steps, for the authenticator: a secret whose hash it holds an answer for was checked
 * whole when that answer was made (the same text, the same hash), so the checksum is computed only when it has none.
 */
export function shapedKeySecret(text: string): ShapedKeySecret | undefined {
  const match = KEY_PATTERN.exec(text);
  if (!match) return undefined;
  return { lookup: lookupOf(text), hash: hashSecret(text), random: match[1] as string, checksum: match[2] };
}

/** A key issued before the checksum has none; any other must carry the right one. */
export function checksumHolds(secret: ShapedKeySecret): boolean {
  return secret.checksum === undefined || secret.checksum === checksumOf(secret.random);
}

/** The CRC32 of the random part, in base62, padded to six characters (62^6 > 2^32). */
export function checksumOf(random: string): string {
  let n = crc32(random);
  let text = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    text = ALPHABET[n % 62] + text;
    n = Math.floor(n / 62);
  }
  return text;
}

/** The one-shot `crypto.hash`: it runs on every request, and is cheaper than a `createHash` object. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function lookupOf(secret: string): string {
  return secret.slice(KEY_PREFIX.length, KEY_PREFIX.length + LOOKUP_LENGTH);
}
