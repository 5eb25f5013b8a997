/**
 * Standard Webhooks signing (docs/webhooks.md, Signatures): a secret is `whsec_` and base64 of 24 random bytes;
 * `webhook-signature` is `v1,` and base64 of HMAC-SHA256 over `id.timestamp.body` with the decoded secret, one
 * per secret that signs (space-separated while a rotated-out secret still signs). Written here in a few lines
 * rather than taken from a library, so that the tests, which verify with the `standardwebhooks` library, check it
 * against an implementation that is not this one.
 */
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a delivery: `timestamp` in seconds since the epoch. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, id, timestamp, body)).join(' '),
  };
}
