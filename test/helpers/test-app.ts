/**
 * A real app on a private copy of the demo store, with accounts and keys for every access case and a clock
 * the test can move. Requests go through Fastify's `inject` (in-process, no port).
 */

import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';
import { RedisCounters } from '../../src/access/redis-counters.js';
import { createKey } from '../../src/admin/keys.js';
import { type PlanChanges, savePlan } from '../../src/admin/plans.js';
import { type App, createApp } from '../../src/app.js';
import type { LogDestination } from '../../src/channels/http/request-log.js';
import { loadConfig } from '../../src/config.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { onPostgres, openTestStoreSync, storeEnv } from './backend.js';
import { deleteKeys, REDIS_URL, uniquePrefix } from './redis.js';
import { testDir } from './temp-dir.js';

declare module 'vitest' {
  export interface ProvidedContext {
    demoDbPath: string;
  }
}

export const BASE_URL = 'http://munidata.test';

export interface TestApp {
  app: App;
  store: Store;
  dbPath: string;
  keys: {
    premium: string;
    beta: string;
    free: string;
    indicatorsOnly: string;
    signalsOnlyScope: string;
    noIndicatorsDomain: string;
  };
  accounts: Record<'premium' | 'beta' | 'free' | 'indicatorsOnly' | 'noIndicatorsDomain', number>;
  clock: { now: number; advance(ms: number): void };
  get(path: string, options?: { key?: string | null; headers?: Record<string, string> }): Promise<TestResponse>;
  /**
   * A fresh account on a plan of its own (created with `changes` over an indicators plan with raw values and
   * limits high enough not to get in the way), with one key.
   */
  keyOnPlan(
    code: string,
    changes?: PlanChanges,
    options?: { beta?: boolean },
  ): Promise<{ accountId: number; key: string }>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  json: any;
}

/**
 * A copy of the demo store, migrated and loaded once for the whole run by the global setup: a copy of its file,
 * or on PostgreSQL a database made from its template (dropped when the store closes).
 */
export function copyDemoStore(): { store: Store; dbPath: string } {
  if (onPostgres) return openTestStoreSync(inject('demoDbPath'));
  const dbPath = join(testDir('munidata-'), 'test.db');
  copyFileSync(inject('demoDbPath'), dbPath);
  return { store: openSqliteStore(dbPath), dbPath };
}

/** `baseUrl`: the public address the app names in links (default BASE_URL); a browser test passes where it listens. */
export async function startTestApp(
  options: {
    store?: Store;
    dbPath?: string;
    baseUrl?: string;
    logTo?: LogDestination;
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const { store, dbPath } = options.store ? { store: options.store, dbPath: options.dbPath ?? '' } : copyDemoStore();
  const clock = {
    now: Date.now(),
    advance(ms: number) {
      this.now += ms;
    },
  };
  const config = loadConfig({
    BASE_URL: options.baseUrl ?? BASE_URL,
    ...storeEnv(dbPath),
    LOG_LEVEL: options.logTo ? 'info' : 'silent',
    ...options.env,
  });
  const now = new Date(clock.now);

  await savePlan(store, 'signals_only', { api_access: true, domains: ['signals'], raw_values: true }, 'create').catch(
    () => {},
  );
  const account = async (name: string, plan: string, beta = false) =>
    (await store.createAccount({ name, plan_code: plan, beta, now: now.toISOString() })).id;
  const accounts = {
    premium: await account('Premium Lda', 'premium'),
    beta: await account('Beta Lda', 'premium', true),
    free: await account('Free Lda', 'free'),
    indicatorsOnly: await account('Indicadores Lda', 'premium_indicators'),
    noIndicatorsDomain: await account('Sinais Lda', 'signals_only'),
  };
  const key = async (accountId: number, scopes?: string[]) =>
    (await createKey(store, { accountId, scopes }, now)).secret;
  const keys = {
    premium: await key(accounts.premium),
    beta: await key(accounts.beta),
    free: await key(accounts.free),
    indicatorsOnly: await key(accounts.indicatorsOnly),
    signalsOnlyScope: await key(accounts.premium, ['signals:read']),
    noIndicatorsDomain: await key(accounts.noIndicatorsDomain),
  };

  // On PostgreSQL the counters are Redis ones, under a prefix of this app's own (account ids repeat across files).
  const redisPrefix = onPostgres ? uniquePrefix('app') : undefined;
  const counters = redisPrefix ? await RedisCounters.open({ url: REDIS_URL, store, prefix: redisPrefix }) : undefined;
  const app = await createApp({
    config,
    store,
    clock: () => clock.now,
    ...(counters && { counters }),
    ...(options.logTo && { logDestination: options.logTo }),
  });
  return {
    app,
    store,
    dbPath,
    keys,
    accounts,
    clock,
    async get(path, { key: k = keys.premium, headers = {} } = {}) {
      const res = await app.http.inject({
        method: 'GET',
        url: path,
        headers: { ...(k === null ? {} : { authorization: `Bearer ${k}` }), ...headers },
      });
      let json: unknown;
      try {
        json = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        json = undefined;
      }
      return { status: res.statusCode, headers: res.headers, body: res.body, json };
    },
    async keyOnPlan(code, changes = {}, { beta = false } = {}) {
      const base: PlanChanges = {
        api_access: true,
        domains: ['indicators'],
        raw_values: true,
        requests_per_minute: 100_000,
        requests_per_month: 1_000_000,
      };
      await savePlan(store, code, { ...base, ...changes }, 'create');
      const at = new Date(clock.now);
      const created = await store.createAccount({ name: code, plan_code: code, beta, now: at.toISOString() });
      return { accountId: created.id, key: (await createKey(store, { accountId: created.id }, at)).secret };
    },
    async close() {
      await app.close();
      await store.close();
      if (redisPrefix) await deleteKeys(redisPrefix);
    },
  };
}

/** Follows `next_cursor` until `has_more` is false; returns every item. */
export async function collectPages(t: TestApp, path: string, options: { key?: string } = {}): Promise<any[]> {
  const items: any[] = [];
  let url = path;
  for (let page = 0; page < 1000; page++) {
    const res = await t.get(url, options);
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${res.body}`);
    items.push(...res.json.items);
    if (!res.json.has_more) return items;
    const u = new URL(url, 'http://x');
    u.searchParams.set('cursor', res.json.next_cursor);
    url = `${u.pathname}${u.search}`;
  }
  throw new Error('more than 1000 pages');
}
