/**
 * What serves the resources of one URI scheme (`munidata://`, the data; `ui://`, the apps' views). The MCP
 * server dispatches `resources/templates/list`, `resources/list`, `resources/read` and the completion of a
 * template's arguments by scheme (resource-providers.ts), so that a scheme is one more provider in its table.
 */
import type { FastifyRequest } from 'fastify';
import type { MethodAnswer } from '../../jsonrpc/index.js';

/** A resource template as `resources/templates/list` shows it. */
export interface ResourceTemplate {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly mimeType: string;
}

/** A concrete resource as `resources/list` shows it. */
export interface ResourceEntry {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType: string;
}

/** A completion's values, best first (at most 100), and how many match in all. */
export interface Completion {
  readonly values: readonly string[];
  readonly total: number;
}

export interface ResourceProvider<P> {
  /** The scheme of its URIs, without `://`. */
  readonly scheme: string;
  /** The templates this caller may read through. */
  templates(principal: P): Promise<readonly ResourceTemplate[]>;
  /** The concrete resources this caller may read, in the same order on every call. */
  list(principal: P): Promise<readonly ResourceEntry[]>;
  /**
   * The `resources/read` result (JSON text, or bytes) of one of its URIs; throws a JsonRpcError (an unknown
   * resource: -32602 with `data.uri`) or an ApiError that refuses the whole HTTP request.
   */
  read(principal: P, uri: string, request: FastifyRequest): Promise<MethodAnswer>;
  /** Values for one argument of one of its templates; undefined when it has no such template or argument. */
  complete?(
    principal: P,
    uriTemplate: string,
    argument: string,
    value: string,
    context: Readonly<Record<string, string>>,
  ): Promise<Completion | undefined>;
}
