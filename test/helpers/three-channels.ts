/**
 * One operation call with one input on each of the three channels (REST GET, A2A SendMessage, MCP tools/call),
 * sent in process, and its answer read the way a client of that channel reads it: a success, or an error kind
 * with the fields it names. `checkForm` says what is wrong with the answer's form, if anything, for that channel.
 */
import type { AnyOperation } from '../../src/core/operation.js';
import type { TestApp } from './test-app.js';

export type ChannelName = 'rest' | 'a2a' | 'mcp';
export const CHANNEL_NAMES: ChannelName[] = ['rest', 'a2a', 'mcp'];

export interface CallAnswer {
  readonly channel: ChannelName;
  readonly status: number;
  /** The error kind (`validation-error`, …), or undefined for a success. */
  readonly kind: string | undefined;
  /** The fields a validation error names. */
  readonly fields: string[];
  readonly body: string;
  /** The request as sent, to reproduce it (curl-like). */
  readonly request: string;
  /** What is wrong with the answer's form for this channel; undefined when it is right. */
  readonly formProblem: string | undefined;
}

/**
 * Percent-encoding of any string, a lone surrogate as the three bytes UTF-8 would give it (encodeURIComponent throws).
 */
export function encodeQueryText(value: string): string {
  let out = '';
  for (const char of value) {
    const cp = char.codePointAt(0) as number;
    if (cp >= 0xd800 && cp <= 0xdfff) {
      out += [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(char);
  }
  return out;
}

/**
 * A number as JSON text; ±Infinity as `1e400` and `-1e400`, which every JSON parser reads as Infinity (and REST's
 * digits as such too): JSON.stringify would write `null`.
 */
function jsonNumber(value: number): string {
  return Number.isFinite(value) ? JSON.stringify(value) : `${value < 0 ? '-' : ''}1e400`;
}

const NON_FINITE = '\u2063non-finite\u2063';

/** JSON text of a payload, its infinite numbers written as `1e400` (above). */
export function jsonText(payload: unknown): string {
  return JSON.stringify(payload, (_name, value: unknown) =>
    typeof value === 'number' && !Number.isFinite(value) && !Number.isNaN(value) ? `${NON_FINITE}${value}` : value,
  ).replace(new RegExp(`"${NON_FINITE}(-?)Infinity"`, 'g'), '$11e400');
}

/**
 * The REST URL for an input: path parameters in the path, the rest as the query (arrays repeated, other values
 * as their JSON text, strings as they are). Undefined when a value has no REST spelling (an object, null).
 */
export function restUrl(op: AnyOperation, input: Record<string, unknown>): string | undefined {
  const spell = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (typeof value === 'number') return Number.isNaN(value) ? undefined : jsonNumber(value);
    if (typeof value === 'boolean') return JSON.stringify(value);
    return undefined;
  };
  let path = op.rest.path;
  const query: string[] = [];
  for (const [name, value] of Object.entries(input)) {
    const values = Array.isArray(value) ? value : [value];
    const spelled = values.map(spell);
    if (spelled.some((v) => v === undefined) || (Array.isArray(value) && value.length === 0)) return undefined;
    if (path.includes(`:${name}`)) {
      if (Array.isArray(value)) return undefined;
      path = path.replace(`:${name}`, encodeQueryText(spelled[0] as string));
    } else {
      for (const v of spelled) query.push(`${encodeQueryText(name)}=${encodeQueryText(v as string)}`);
    }
  }
  if (/:[a-z_]+/.test(path)) return undefined; // a path parameter left out: another route
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

let rpcId = 0;

export async function callOn(
  t: TestApp,
  channel: ChannelName,
  op: AnyOperation,
  input: Record<string, unknown>,
  key: string,
): Promise<CallAnswer | undefined> {
  if (channel === 'rest') {
    const url = restUrl(op, input);
    if (url === undefined) return undefined;
    const res = await t.app.http.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
    const json = parse(res.body);
    const ok = res.statusCode === 200;
    const kind = ok ? undefined : String(json?.type ?? '').split('/problems/')[1];
    let formProblem: string | undefined;
    if (!ok) {
      if (!String(res.headers['content-type']).startsWith('application/problem+json'))
        formProblem = 'not application/problem+json';
      else if (json?.status !== res.statusCode || !kind || typeof json.title !== 'string')
        formProblem = 'not a problem document';
      else if (!json.request_id || json.request_id !== res.headers['request-id']) formProblem = 'no request id';
    }
    return {
      channel,
      status: res.statusCode,
      kind,
      fields: fieldsOf(json?.errors),
      body: res.body,
      request: `GET ${url} -H 'authorization: Bearer $KEY'`,
      formProblem,
    };
  }
  const id = ++rpcId;
  const payload =
    channel === 'a2a'
      ? {
          jsonrpc: '2.0',
          id,
          method: 'SendMessage',
          params: {
            message: {
              messageId: `m-${id}`,
              role: 'ROLE_USER',
              parts: [{ data: { skill: op.name, input }, mediaType: 'application/json' }],
            },
          },
        }
      : { jsonrpc: '2.0', id, method: 'tools/call', params: { name: op.name, arguments: input } };
  const headers: Record<string, string> =
    channel === 'a2a'
      ? { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'a2a-version': '1.0' }
      : {
          'content-type': 'application/json',
          authorization: `Bearer ${key}`,
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
        };
  const body = jsonText(payload);
  const url = channel === 'a2a' ? '/a2a' : '/mcp';
  const res = await t.app.http.inject({ method: 'POST', url, headers, payload: body });
  const json = parse(res.body);
  // The key stays out of test output: $KEY stands for it.
  const request = `POST ${url} ${Object.entries({ ...headers, authorization: 'Bearer $KEY' })
    .map(([name, value]) => `-H '${name}: ${value}'`)
    .join(' ')} --data '${body}'`;
  let kind: string | undefined;
  let fields: string[] = [];
  let formProblem: string | undefined;
  if (json?.jsonrpc !== '2.0' || json.id !== id) formProblem = 'not a JSON-RPC response to the request';
  if (channel === 'a2a') {
    if (json?.error) {
      const info = json.error.data?.[0];
      const problem = json.error.data?.[1];
      kind = typeof info?.metadata?.kind === 'string' ? info.metadata.kind : `code ${json.error.code}`;
      fields = fieldsOf(problem?.errors);
      if (!info?.metadata?.request_id) formProblem ??= 'no request id in the ErrorInfo';
    } else if (!json?.result?.message?.parts?.[0]) formProblem ??= 'neither a message nor an error';
  } else {
    const problem = json?.result?.isError ? json.result.structuredContent : json?.error?.data;
    if (json?.error || json?.result?.isError) {
      kind = typeof problem?.type === 'string' ? problem.type.split('/problems/')[1] : `code ${json?.error?.code}`;
      fields = fieldsOf(problem?.errors);
      if (!problem?.request_id) formProblem ??= 'no request id in the problem';
    } else if (json?.result?.structuredContent === undefined) formProblem ??= 'neither a result nor an error';
  }
  return { channel, status: res.statusCode, kind, fields, body: res.body, request, formProblem };
}

/** The operation's JSON in a successful answer, whatever the channel wrapped it in (REST body, MCP, A2A). */
export function answerData(answer: CallAnswer): any {
  const json = JSON.parse(answer.body);
  if (answer.channel === 'rest') return json;
  return answer.channel === 'mcp' ? json.result.structuredContent : json.result.message.parts[0].data;
}

function parse(body: string): any {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function fieldsOf(errors: unknown): string[] {
  return Array.isArray(errors) ? errors.map((e) => String((e as { field?: unknown }).field)) : [];
}
