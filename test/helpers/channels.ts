/**
 * One data request on each of the three channels (REST, A2A SendMessage, MCP tools/call), sent in process
 * (Fastify's inject) or to a server's port (fetch), and its answer read in the channel's own form: a data answer,
 * or 503 `service-unavailable` with Retry-After. A load of such requests counts what was admitted and refused.
 */
import { expect } from 'vitest';
import { BASE_URL } from './test-app.js';

export type Channel = 'rest' | 'a2a' | 'mcp';
export const CHANNELS: Channel[] = ['rest', 'a2a', 'mcp'];

/**
 * An indicator's detail (indicators_get), or with `municipality` its series there (indicators_series, which reads the
 * store).
 */
export interface DataInput {
  key: string;
  municipality?: string;
  /** A page size: series of different sizes are different answers, so each one is read from the store. */
  limit?: number;
}

export interface ChannelRequest {
  method: 'GET' | 'POST';
  /** Path and query. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[] | number | undefined>;
  json: any;
  body: string;
}

let rpcId = 0;

/** The request a client of `channel` sends for `input`, authenticated with `key`. */
export function dataRequest(channel: Channel, key: string, input: DataInput = { key: 'population' }): ChannelRequest {
  const operation = input.municipality ? 'indicators_series' : 'indicators_get';
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  if (channel === 'rest') {
    const { key: indicator, ...query } = input;
    const search = new URLSearchParams(
      Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();
    const path = input.municipality ? `/v1/indicators/${indicator}/series` : `/v1/indicators/${indicator}`;
    return { method: 'GET', url: search ? `${path}?${search}` : path, headers };
  }
  const id = ++rpcId;
  if (channel === 'a2a') {
    const message = {
      messageId: `m-${id}`,
      role: 'ROLE_USER',
      parts: [{ data: { skill: operation, input }, mediaType: 'application/json' }],
    };
    return {
      method: 'POST',
      url: '/a2a',
      headers: { ...headers, 'a2a-version': '1.0' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'SendMessage', params: { message } }),
    };
  }
  return {
    method: 'POST',
    url: '/mcp',
    headers: { ...headers, accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: operation, arguments: input } }),
  };
}

/** An answer from its parts, the body parsed as JSON when it is JSON. */
export function answer(status: number, headers: Answer['headers'], body: string): Answer {
  let json: any;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, headers, json, body };
}

/** Sends `request` to the server at `origin` (`http://127.0.0.1:<port>`); no answer within `timeoutMs` rejects. */
export async function fetchAnswer(origin: string, request: ChannelRequest, timeoutMs = 15_000): Promise<Answer> {
  const { method, headers, body } = request;
  const res = await fetch(`${origin}${request.url}`, { method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
  return answer(res.status, Object.fromEntries(res.headers), await res.text());
}

/** A data answer, in the channel's form. */
export function isAdmitted(channel: Channel, res: Answer): boolean {
  if (res.status !== 200) return false;
  if (channel === 'rest') return res.json?.key !== undefined || Array.isArray(res.json?.items);
  if (channel === 'a2a') return res.json?.result?.message?.parts?.[0]?.data !== undefined;
  return res.json?.result?.structuredContent !== undefined && res.json.result.isError === undefined;
}

/**
 * 503 `service-unavailable` with Retry-After, in the channel's form (problem types under `baseUrl`); throws (via
 * expect) otherwise.
 */
export function expectUnavailable(channel: Channel, res: Answer, baseUrl = BASE_URL): void {
  expect(res.status, `${channel}: ${res.body}`).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  const type = `${baseUrl}/problems/service-unavailable`;
  if (channel === 'rest') {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json).toMatchObject({ type, status: 503, title: 'Service temporarily unavailable' });
  } else if (channel === 'a2a') {
    expect(res.json.error.code).toBe(-32004);
    expect(res.json.error.data[0]).toMatchObject({
      reason: 'SERVICE_UNAVAILABLE',
      metadata: { kind: 'service-unavailable' },
    });
    expect(res.json.error.data[1]).toMatchObject({ type, status: 503 });
  } else {
    expect(res.json.error.code).toBe(-32000);
    expect(res.json.error.data).toMatchObject({ type, status: 503 });
  }
  // The cause (a host, a driver's message) never reaches the caller.
  expect(res.body).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|Stream isn't writeable|Connection terminated/);
}

/** What a load got: data answers, 503 refusals, anything else (described), and the longest wait for an answer. */
export interface Tally {
  admitted: number;
  refused: number;
  unexpected: string[];
  slowestMs: number;
}

export interface Load {
  readonly tally: Tally;
  /** Sends no more, and resolves once every request in flight is answered and counted. */
  stop(): Promise<void>;
}

/**
 * `send(channel)` on every channel at once, round after round (in `workers` loops side by side), until stopped;
 * every answer counted. A request that throws (no answer at all) is counted as unexpected.
 */
export function startLoad(
  send: (channel: Channel) => Promise<Answer>,
  options: { workers?: number; baseUrl?: string } = {},
): Load {
  const tally: Tally = { admitted: 0, refused: 0, unexpected: [], slowestMs: 0 };
  let running = true;
  const count = async (channel: Channel) => {
    const started = performance.now();
    try {
      const res = await send(channel);
      if (isAdmitted(channel, res)) tally.admitted++;
      else {
        try {
          expectUnavailable(channel, res, options.baseUrl);
          tally.refused++;
        } catch {
          tally.unexpected.push(`${channel} ${res.status} ${res.body.slice(0, 200)}`);
        }
      }
    } catch (error) {
      tally.unexpected.push(`${channel} no answer: ${String(error)}`);
    } finally {
      tally.slowestMs = Math.max(tally.slowestMs, performance.now() - started);
    }
  };
  const worker = async () => {
    while (running) {
      await Promise.all(CHANNELS.map(count));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  };
  const workers = Array.from({ length: options.workers ?? 1 }, worker);
  return {
    tally,
    async stop() {
      running = false;
      await Promise.all(workers);
    },
  };
}
