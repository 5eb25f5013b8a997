/**
 * Every HTTP method a request can arrive with: Node's parser refuses any other method token and hands CONNECT to
 * the server's `connect` event, so the set is Node's list without CONNECT (src/channels/http/methods.ts).
 */
import { METHODS } from 'node:http';

export const ARRIVING_METHODS: readonly string[] = METHODS.filter((method) => method !== 'CONNECT');

/**
 * Every method but `served`, for the route that refuses them. HEAD is left out whenever GET is served: Fastify
 * answers it with the GET route.
 */
export function methodsOtherThan(served: readonly string[]): string[] {
  const left = new Set(served.includes('GET') ? [...served, 'HEAD'] : served);
  return ARRIVING_METHODS.filter((method) => !left.has(method));
}
