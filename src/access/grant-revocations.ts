/**
 * Announcing revoked OAuth grants to every authenticator that may hold a cached answer for their tokens
 * (docs/oauth.md, Revocation): in this process always, and, when the counters are on Redis (many instances), to
 * every instance through a Redis channel under the deployment's prefix. The command line announces through the
 * same channel when it revokes a grant.
 */
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import type { GrantRevocations } from './tokens.js';

export interface GrantRevocationFeed extends GrantRevocations {
  /** Tells every listener, here and on the other instances, that the grant is gone. */
  announce(grantId: string): Promise<void>;
  close(): Promise<void>;
}

export interface RevocationLocation {
  readonly redisUrl?: string;
  readonly redisPrefix?: string;
}

const CHANNEL = 'oauth-grant-revoked';

export async function openGrantRevocations(location: RevocationLocation): Promise<GrantRevocationFeed> {
  const local = new EventEmitter();
  const onRevoked = (listener: (grantId: string) => void) => {
    local.on('revoked', listener);
  };
  if (location.redisUrl === undefined) {
    return {
      onRevoked,
      async announce(grantId) {
        local.emit('revoked', grantId);
      },
      async close() {},
    };
  }
  const channel = `${location.redisPrefix ?? 'munidata:'}${CHANNEL}`;
  const options = {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => Math.min(100 * 2 ** attempt, 2_000),
  };
  const publisher = new Redis(location.redisUrl, { ...options, lazyConnect: true });
  const subscriber = new Redis(location.redisUrl, options);
  // Failures show in the counters' own reports; the cache's 5 s bound holds whatever happens here.
  publisher.on('error', () => {});
  subscriber.on('error', () => {});
  subscriber.on('message', (from: string, grantId: string) => {
    if (from === channel) local.emit('revoked', grantId);
  });
  await subscriber.subscribe(channel).catch(() => undefined);
  return {
    onRevoked,
    async announce(grantId) {
      local.emit('revoked', grantId);
      await publisher.publish(channel, grantId).catch(() => undefined);
    },
    async close() {
      subscriber.disconnect();
      publisher.disconnect();
    },
  };
}
