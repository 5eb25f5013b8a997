/**
 * The registry built from the operation list. It refuses, before the server listens, anything that would
 * make the derived surfaces ambiguous: a duplicate name or route (a download route included), a domain without
 * its scope.
 */

import type { AnyOperation } from '../core/operation.js';
import { DOMAINS } from '../lib/domains.js';

export class Registry {
  readonly all: readonly AnyOperation[];
  readonly #byName = new Map<string, AnyOperation>();

  constructor(operations: readonly AnyOperation[]) {
    const paths = new Set<string>();
    for (const op of operations) {
      if (!/^[a-z][a-z0-9_]*$/.test(op.name)) throw new Error(`Operation name "${op.name}" must be snake_case`);
      if (this.#byName.has(op.name)) throw new Error(`Duplicate operation name "${op.name}"`);
      if (paths.has(op.rest.path)) throw new Error(`Duplicate REST path "${op.rest.path}" (${op.name})`);
      if (op.domain !== null && op.scope !== DOMAINS[op.domain].scope) {
        throw new Error(`${op.name}: domain ${op.domain} needs scope ${DOMAINS[op.domain].scope}, not ${op.scope}`);
      }
      for (const p of pathParams(op.rest.path)) {
        if (!op.input.required?.includes(p))
          throw new Error(`${op.name}: path parameter :${p} is not a required input`);
      }
      const download = op.rest.download;
      if (download !== undefined) {
        if (paths.has(download.path) || download.path === op.rest.path)
          throw new Error(`Duplicate REST path "${download.path}" (${op.name})`);
        if (pathParams(download.path).join() !== 'dataset')
          throw new Error(`${op.name}: a download path takes one parameter, :dataset`);
        if (operations.some((o) => o.name === download.operationId)) {
          throw new Error(`${op.name}: download operationId "${download.operationId}" is an operation's name`);
        }
        paths.add(download.path);
      }
      this.#byName.set(op.name, op);
      paths.add(op.rest.path);
    }
    this.all = Object.freeze([...operations]);
  }

  get(name: string): AnyOperation | undefined {
    return this.#byName.get(name);
  }
}

function pathParams(path: string): string[] {
  return [...path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]);
}
