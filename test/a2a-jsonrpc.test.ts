/** The JSON-RPC 2.0 envelope module shared by the agent channels (src/channels/jsonrpc). */
import { describe, expect, it } from 'vitest';
import {
  errorResponse,
  isJsonContentType,
  JsonRpcError,
  paramsObject,
  parseJsonRpc,
  resultResponse,
  serialize,
  serializeRawResult,
  toErrorResponse,
} from '../src/channels/jsonrpc/jsonrpc.js';

describe('parseJsonRpc', () => {
  it('reads a request, a notification, and already-parsed values', () => {
    const parsed = parseJsonRpc('{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}');
    expect(parsed).toMatchObject({
      ok: true,
      id: 'a',
      notification: false,
      request: { method: 'm', params: { x: 1 } },
    });
    expect(parseJsonRpc(Buffer.from('{"jsonrpc":"2.0","method":"n"}'))).toMatchObject({
      ok: true,
      id: null,
      notification: true,
    });
    expect(parseJsonRpc({ jsonrpc: '2.0', id: 0, method: 'm' })).toMatchObject({ ok: true, id: 0 });
  });

  it('-32700 for malformed JSON, -32600 for anything that is not one request object', () => {
    expect(parseJsonRpc('{')).toMatchObject({ ok: false, id: null, error: { code: -32700 } });
    const invalid: [unknown, unknown][] = [
      [[{ jsonrpc: '2.0', id: 1, method: 'm' }], null],
      [null, null],
      [{ id: 1, method: 'm' }, 1],
      [{ jsonrpc: '2.0', id: 1 }, 1],
      [{ jsonrpc: '2.0', id: 1, method: '' }, 1],
      [{ jsonrpc: '2.0', id: [1], method: 'm' }, null],
      [{ jsonrpc: '2.0', id: 1, method: 'm', params: 3 }, 1],
    ];
    for (const [body, id] of invalid) {
      expect(parseJsonRpc(JSON.stringify(body)), JSON.stringify(body)).toMatchObject({
        ok: false,
        id,
        error: { code: -32600 },
      });
    }
  });

  it('params: absent → {}, array → undefined', () => {
    expect(paramsObject({ jsonrpc: '2.0', method: 'm' })).toEqual({});
    expect(paramsObject({ jsonrpc: '2.0', method: 'm', params: [1] })).toBeUndefined();
  });
});

describe('responses', () => {
  it('builds and serialises results and errors', () => {
    expect(serialize(resultResponse(1, { a: 1 }))).toBe('{"jsonrpc":"2.0","id":1,"result":{"a":1}}');
    expect(serializeRawResult('x', '{"a":1}')).toBe('{"jsonrpc":"2.0","id":"x","result":{"a":1}}');
    expect(JSON.parse(serializeRawResult(null, '[]'))).toEqual({ jsonrpc: '2.0', id: null, result: [] });
    expect(errorResponse(2, -32601)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32601, message: 'Method not found.' },
    });
    expect(toErrorResponse(3, new JsonRpcError(-32004, 'No.', [1]))).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32004, message: 'No.', data: [1] },
    });
    // Anything else is an internal error that says nothing about its cause.
    expect(toErrorResponse(4, new Error('SQL'))).toEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32603, message: 'Internal error.' },
    });
  });

  it('recognises application/json with parameters', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('Application/JSON; charset=utf-8')).toBe(true);
    expect(isJsonContentType('text/plain')).toBe(false);
    expect(isJsonContentType('application/json-seq')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});
