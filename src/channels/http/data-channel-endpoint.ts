/**
 * What the data service's A2A agent and MCP server share: admission by the core to a data channel (Origin,
 * credential, per-minute limit, a plan with data API access), the limits' headers, the OAuth challenge naming the
 * endpoint's resource (docs/oauth.md), and where errors happen (and how they name an operation to call next).
 */
import type { FastifyRequest } from 'fastify';
import type { Admission } from '../../core/admission.js';
import type { Core } from '../../core/core.js';
import type { ApiError, ErrorPlace, NamedOperation } from '../../lib/errors.js';
import type { LimitState } from '../../lib/limit-state.js';
import { rateLimitHeaders } from './limit-headers.js';
import { protectedResourceChallenge, protectedResourceFacts } from './oauth-resource-facts.js';

/** The path of a data channel's endpoint: the OAuth resource its tokens are bound to. */
type DataChannelPath = Parameters<typeof protectedResourceChallenge>[3];

export class DataChannelEndpoint {
  protected readonly core: Core;
  readonly #path: DataChannelPath;
  readonly #refer: (operation: NamedOperation) => string;

  /** `refer`: how an error names an operation to call next on this channel (a tool, a skill). */
  constructor(core: Core, path: DataChannelPath, refer: (operation: NamedOperation) => string) {
    this.core = core;
    this.#path = path;
    this.#refer = refer;
  }

  errorPlace(request: FastifyRequest): ErrorPlace {
    return { baseUrl: this.core.baseUrl, requestId: request.id, instance: this.#path, refer: this.#refer };
  }

  admit(request: FastifyRequest): Promise<Admission> {
    return this.core.admitDataChannel(protectedResourceFacts(request, this.core.baseUrl));
  }

  challenge(error: ApiError, request: FastifyRequest): string {
    return protectedResourceChallenge(error, request, this.core.baseUrl, this.#path);
  }

  headers(admission: Admission | undefined, quota?: LimitState): Record<string, string> {
    return rateLimitHeaders(admission?.minute, quota);
  }
}
