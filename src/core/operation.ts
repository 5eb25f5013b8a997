/**
 * The operation descriptor: plain data plus a handler. `name` is the A2A skill id and the MCP tool name;
 * the REST route, the OpenAPI document, the agent card and the tool list are all derived from it.
 */
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { Domain, Scope } from '../lib/domains.js';
import type { OperationContext } from './context.js';

export interface OperationExample {
  readonly title: string;
  readonly input: Record<string, unknown>;
}

/** A REST-only file route of an operation (docs/api.md, Bulk download); the OpenAPI document describes it from this. */
export interface DownloadRoute {
  /** Fastify-style path whose one parameter, `:dataset`, names the file. */
  readonly path: string;
  /** Its OpenAPI `operationId` (no skill or tool has it). */
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
}

/** A file an answer points to (MCP gives each as a `resource_link` content block beside the JSON). */
export interface FileLink {
  readonly url: string;
  /** Its name as the answer knows it (a dataset's `name`). */
  readonly name: string;
  readonly title: string;
  readonly mediaType: string;
  readonly sizeBytes: number;
}

export interface Operation<I extends TObject = TObject, O extends TSchema = TSchema> {
  readonly name: string;
  /** Short human title (MCP tool title, A2A skill name). */
  readonly title: string;
  /** One line: what it answers. */
  readonly summary: string;
  /** For an agent or a developer: what it returns, when to use it, how to page. */
  readonly description: string;
  /** `null` for operations outside every data domain (`me`). */
  readonly domain: Domain | null;
  readonly scope: Scope | null;
  /** Path parameters and query parameters, under the same names, as one object schema. */
  readonly input: I;
  readonly output: O;
  readonly rest: {
    /** Fastify-style path with `:param` segments, e.g. `/v1/indicators/:key/series`. */
    readonly path: string;
    /**
     * REST only: a file route beside the operation, for the files its answer lists (the bulk download). A2A and MCP
     * list the operation alone; its answer carries each file's REST address, which agents fetch over HTTP with the
     * same key. The route is guarded like the operation (its domain, scope and beta gate) and charged one request.
     */
    readonly download?: DownloadRoute;
  };
  /**
   * `caller`: the answer depends on who asks (usage, own rules) → `Cache-Control: private, no-store`.
   * `data`: the same for every caller of the same plan → `private, max-age=60`.
   */
  readonly cache: 'caller' | 'data';
  /** Free of quota (`me`). */
  readonly free?: boolean;
  /**
   * An answer that is not a list but holds one: the member whose elements are the rows of its CSV form (the
   * aggregate's `groups`). Lists (a page's `items`, an array) need nothing here.
   */
  readonly csvRows?: string;
  readonly examples: readonly OperationExample[];
  /** The files an answer lists, for channels that can link to them beside the JSON (MCP). */
  readonly fileLinks?: (answer: Static<O>) => readonly FileLink[];
  readonly handler: (input: Static<I>, ctx: OperationContext) => Promise<Static<O>> | Static<O>;
}

export type AnyOperation = Operation<TObject, TSchema>;

/** Keeps the handler's input and output typed by the schemas while producing a plain descriptor. */
export function defineOperation<I extends TObject, O extends TSchema>(op: Operation<I, O>): AnyOperation {
  return Object.freeze(op) as unknown as AnyOperation;
}
