/**
 * The library's storage adapter over the store (docs/oauth.md, Scale-out): every model in one kind of record,
 * keyed by model and id, so that any instance serves any step of a flow. Expired records are not found.
 */
import type { Adapter, AdapterPayload } from 'oidc-provider';
import { lookUp } from '../lib/storable-text.js';
import type { OAuthStore } from '../store/oauth/oauth-sql-store.js';
import { isLoopbackClientId, loopbackMetadataDocument } from './cimd-guard.js';

export interface AdapterOptions {
  /** Read `http://127.0.0.1/…` client ids as metadata documents (the service runs on a loopback base URL). */
  readonly loopbackMetadataDocuments: boolean;
}

export function adapterFactory(store: OAuthStore, options: AdapterOptions): (model: string) => Adapter {
  return (model) => new OAuthAdapter(store, model, options);
}

class OAuthAdapter implements Adapter {
  readonly #store: OAuthStore;
  readonly #model: string;
  readonly #options: AdapterOptions;

  constructor(store: OAuthStore, model: string, options: AdapterOptions) {
    this.#store = store;
    this.#model = model;
    this.#options = options;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAtMs = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : null;
    await this.#store.oauthUpsert(this.#model, id, payload as Record<string, unknown>, expiresAtMs);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    const record = await lookUp(() => this.#store.oauthFind(this.#model, id, Date.now()));
    if (record) return withConsumed(record.payload, record.consumed);
    if (this.#model === 'Client' && this.#options.loopbackMetadataDocuments && isLoopbackClientId(id)) {
      return (await loopbackMetadataDocument(id)) as AdapterPayload | undefined;
    }
    return undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    const record = await lookUp(() => this.#store.oauthFindByUid(this.#model, uid, Date.now()));
    return record ? withConsumed(record.payload, record.consumed) : undefined;
  }

  async findByUserCode(): Promise<AdapterPayload | undefined> {
    return undefined; // no device flow
  }

  async consume(id: string): Promise<void> {
    await this.#store.oauthConsume(this.#model, id);
  }

  async destroy(id: string): Promise<void> {
    await this.#store.oauthDestroy(this.#model, id);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#store.oauthRevokeGrant(grantId);
  }
}

function withConsumed(payload: Record<string, unknown>, consumed: boolean): AdapterPayload {
  return (consumed ? { ...payload, consumed: true } : payload) as AdapterPayload;
}
