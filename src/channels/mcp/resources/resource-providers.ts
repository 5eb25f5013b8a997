/**
 * The resource methods of an MCP server over its providers, one per URI scheme (resource-provider.ts): the lists
 * are the providers' in table order, paged; a read goes to the provider of the URI's scheme. Errors follow the
 * revision's resources page (Error Handling): an unknown resource is -32602 with the URI in `data`.
 */
import type { FastifyRequest } from 'fastify';
import type { CursorCodec } from '../../../core/cursor.js';
import type { Json } from '../../../lib/json.js';
import { invalidParams, JSONRPC_CODES, JsonRpcError, type MethodAnswer } from '../../jsonrpc/index.js';
import type { ResourceProvider } from './resource-provider.js';

/** Resources per `resources/list` page. */
export const RESOURCES_PER_PAGE = 100;

/** What a `resources/list` cursor is signed for: no other cursor of the service is one. */
const CURSOR_SCOPE = 'mcp resources/list';

export class ResourceProviders<P> {
  readonly #providers: readonly ResourceProvider<P>[];
  readonly #cursors: CursorCodec;

  /** `cursors`: the service's cursor codec, which signs the list's positions as it signs every other cursor. */
  constructor(providers: readonly ResourceProvider<P>[], cursors: CursorCodec) {
    this.#providers = providers;
    this.#cursors = cursors;
  }

  /** The provider of a URI's (or URI template's) scheme. */
  of(uri: string): ResourceProvider<P> | undefined {
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();
    return this.#providers.find((provider) => provider.scheme === scheme);
  }

  /** `resources/templates/list`: every template this caller may read through, in one page. */
  async templatesResult(principal: P, params: Json): Promise<MethodAnswer> {
    if (params.cursor !== undefined && params.cursor !== null) throw invalidParams('the template list has one page');
    const templates = await Promise.all(this.#providers.map((provider) => provider.templates(principal)));
    return { result: JSON.stringify({ resourceTemplates: templates.flat() }) };
  }

  /** `resources/list`: one page of the concrete resources this caller may read, and the cursor of the next. */
  async listResult(principal: P, params: Json): Promise<MethodAnswer> {
    const start = this.#pageStart(params.cursor);
    const lists = await Promise.all(this.#providers.map((provider) => provider.list(principal)));
    const all = lists.flat();
    if (start > all.length) throw invalidParams('cursor is past the end of the list: list again from the start');
    const end = start + RESOURCES_PER_PAGE;
    const next = end < all.length ? { nextCursor: this.#cursors.encode(CURSOR_SCOPE, end) } : {};
    return { result: JSON.stringify({ resources: all.slice(start, end), ...next }) };
  }

  /**
   * A cursor is the position of the next page, opaque to the client and signed like every cursor of the service
   * (core/cursor.ts): one this server did not issue — made up, edited, or another list's — is -32602.
   */
  #pageStart(cursor: unknown): number {
    if (cursor === undefined || cursor === null) return 0;
    let position: unknown;
    try {
      position = typeof cursor === 'string' ? this.#cursors.decode(CURSOR_SCOPE, cursor) : undefined;
    } catch {
      position = undefined;
    }
    if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0)
      throw invalidParams('cursor is not one this server issued');
    return position;
  }

  /** `resources/read`. */
  read(principal: P, params: Json, request: FastifyRequest): Promise<MethodAnswer> {
    const { uri } = params;
    if (typeof uri !== 'string' || uri === '') throw invalidParams('uri must be a string: the resource URI');
    const provider = this.of(uri);
    if (provider === undefined) throw resourceNotFound(uri);
    return provider.read(principal, uri, request);
  }
}

/** The answer to a URI no provider serves, or that names nothing (resources, Error Handling). */
export function resourceNotFound(uri: string, detail?: string): JsonRpcError {
  return new JsonRpcError(JSONRPC_CODES.invalidParams, `Resource not found: ${detail ?? uri}`, { uri });
}
