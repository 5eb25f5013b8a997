/**
 * Deployments as the host serves them, by slug: each is re-read from the store at most once a second (so that
 * `agents publish|pause|update` in another process shows within a second) and rebuilt only when its revision or
 * the reference data (municipalities) moved.
 */
import type { ReferenceData } from '../core/reference.js';
import type { Store } from '../store/store.js';
import { Deployment, type DeploymentHosting } from './deployment.js';

const CHECK_EVERY_MS = 1_000;
const MAX_HELD = 10_000;

interface Entry {
  deployment: Deployment | undefined;
  referenceVersion: number;
  checkedAt: number;
}

export class Deployments {
  readonly #store: Store;
  readonly #hosting: DeploymentHosting;
  readonly #entries = new Map<string, Entry>();

  constructor(store: Store, hosting: DeploymentHosting) {
    this.#store = store;
    this.#hosting = hosting;
  }

  /** The deployment with this slug (whatever its status), or undefined. */
  async get(slug: string, reference: ReferenceData, nowMs: number): Promise<Deployment | undefined> {
    const held = this.#entries.get(slug);
    if (held && nowMs - held.checkedAt < CHECK_EVERY_MS && held.referenceVersion === reference.version)
      return held.deployment;
    const record = await this.#store.agents.getDeployment(slug);
    let deployment: Deployment | undefined;
    if (record) {
      const current = held?.deployment;
      deployment =
        current && current.record.revision === record.revision && held?.referenceVersion === reference.version
          ? current
          : new Deployment(record, reference, this.#hosting);
    }
    if (this.#entries.size >= MAX_HELD) this.#entries.clear();
    this.#entries.set(slug, { deployment, referenceVersion: reference.version, checkedAt: nowMs });
    return deployment;
  }

  async byId(id: number, reference: ReferenceData, nowMs: number): Promise<Deployment | undefined> {
    const record = await this.#store.agents.getDeploymentById(id);
    return record && this.get(record.slug, reference, nowMs);
  }
}
