/**
 * The service's own REST addresses as resources (`{base_url}/v1/…?…`): the URI a prompt embeds for an answer that
 * no `munidata://` template names (a list with filters: rest-address.ts) reads back with `resources/read`, as the
 * REST request of that address would answer — the same operation, input, plan, scopes and charge, the JSON with its
 * CSV beside it where REST has one (docs/mcp.md, Resources). Not listed (one per possible query) and no templates:
 * the `munidata://` templates are the ones to build a URI from. An address of another server, or a path no
 * operation serves, is an unknown resource.
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../../core/admission.js';
import type { Core } from '../../../core/core.js';
import type { AnyOperation } from '../../../core/operation.js';
import type { ErrorPlace } from '../../../lib/errors.js';
import { parseQueryString } from '../../http/query-string.js';
import type { MethodAnswer } from '../../jsonrpc/index.js';
import { readContents } from './operation-read.js';
import type { ResourceEntry, ResourceProvider, ResourceTemplate } from './resource-provider.js';
import { resourceNotFound } from './resource-providers.js';

interface Found {
  readonly operation: AnyOperation;
  readonly input: Record<string, unknown>;
}

export class RestResources implements ResourceProvider<Admission> {
  readonly scheme: string;
  readonly #core: Core;
  readonly #operations: readonly AnyOperation[];
  readonly #place: (request: FastifyRequest) => ErrorPlace;

  constructor(core: Core, operations: readonly AnyOperation[], place: (request: FastifyRequest) => ErrorPlace) {
    this.scheme = new URL(core.baseUrl).protocol.slice(0, -1);
    this.#core = core;
    this.#operations = operations;
    this.#place = place;
  }

  async templates(): Promise<readonly ResourceTemplate[]> {
    return [];
  }

  async list(): Promise<readonly ResourceEntry[]> {
    return [];
  }

  async read(admission: Admission, uri: string, request: FastifyRequest): Promise<MethodAnswer> {
    const found = this.#operationAt(uri);
    if (found === undefined) throw resourceNotFound(uri);
    const read = { operation: found.operation, input: found.input, encoding: 'text', csv: true } as const;
    const { contents, quota } = await readContents(this.#core, admission, read, uri, request, this.#place(request));
    return { result: JSON.stringify({ contents }), quota };
  }

  /**
   * The operation whose REST path the address names, and its input: the query's parameters (read as REST reads
   * them), then the path's. Where two paths fit (`/v1/x/:id` and `/v1/x/latest`), the one with more fixed segments.
   */
  #operationAt(uri: string): Found | undefined {
    const base = this.#core.baseUrl;
    if (!uri.startsWith(`${base}/`)) return undefined;
    const rest = uri.slice(base.length).split('#')[0];
    const mark = rest.indexOf('?');
    const path = mark < 0 ? rest : rest.slice(0, mark);
    const segments = path.split('/');
    let best: { found: Found; fixed: number } | undefined;
    for (const operation of this.#operations) {
      const pattern = operation.rest.path.split('/');
      if (pattern.length !== segments.length) continue;
      const params: Record<string, unknown> = {};
      let fixed = 0;
      const fits = pattern.every((part, i) => {
        if (!part.startsWith(':')) return part === segments[i] && ++fixed > 0;
        const value = decoded(segments[i]);
        if (value === undefined || value === '') return false;
        params[part.slice(1)] = value;
        return true;
      });
      if (fits && (best === undefined || fixed > best.fixed)) best = { found: { operation, input: params }, fixed };
    }
    if (best === undefined) return undefined;
    const query = mark < 0 ? {} : parseQueryString(rest.slice(mark + 1));
    return { operation: best.found.operation, input: { ...query, ...best.found.input } };
  }
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
