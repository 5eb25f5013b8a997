/**
 * API key secrets: `sk_live_` + 40 random base62 characters (238 bits). The store keeps only the first
 * 12 random characters (to find the key) and a SHA-256 of the whole secret (to check it, in constant time).
 * A secret is shown once, when created, and never logged.
 */
import { hash, randomInt, timingSafeEqual } from 'node:crypto';

export const KEY_PREFIX = 'sk_live_';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const RANDOM_LENGTH = 40;
const LOOKUP_LENGTH = 12;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[A-Za-z0-9]{${RANDOM_LENGTH}}$`);

export interface NewKeySecret {
  secret: string;
  lookup: string;
  hash: string;
}

export function generateKeySecret(): NewKeySecret {
  let random = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(ALPHABET.length)];
  const secret = KEY_PREFIX + random;
  return { secret, lookup: lookupOf(secret), hash: hashSecret(secret) };
}

/** The lookup part of a well-formed secret, or undefined when the text cannot be one of our keys. */
export function parseKeySecret(text: string): { lookup: string; hash: string } | undefined {
  if (!KEY_PATTERN.test(text)) return undefined;
  return { lookup: lookupOf(text), hash: hashSecret(text) };
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
