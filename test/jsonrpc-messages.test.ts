/**
 * The -32602 message of every agent channel is written in one place (channels/jsonrpc, invalidParams): the reason
 * as one sentence, so a reason that is already a sentence ("Unknown municipality \"xyzzy\".") gets no second full
 * stop ("…\"xyzzy\".." was what the MCP prompts answered).
 */
import { describe, expect, it } from 'vitest';
import { paramsError } from '../src/channels/a2a/errors.js';
import { invalidParams } from '../src/channels/jsonrpc/index.js';

describe('Invalid params messages', () => {
  it.each([
    ['Unknown municipality "xyzzy".', 'Invalid params: Unknown municipality "xyzzy".'],
    ['At most 5 indicators, not 6.', 'Invalid params: At most 5 indicators, not 6.'],
    [
      'argument municipality is required: Code, slug or name.',
      'Invalid params: argument municipality is required: Code, slug or name.',
    ],
    ['Did you mean Braga?', 'Invalid params: Did you mean Braga?'],
    ['params must be an object', 'Invalid params: params must be an object.'],
  ])('%j → %j', (why, message) => {
    const error = invalidParams(why);
    expect(error.code).toBe(-32602);
    expect(error.message).toBe(message);
  });

  it('A2A names the field the same way, with its BadRequest', () => {
    expect(paramsError('status', 'must be a task state').message).toBe('Invalid params: status must be a task state.');
    expect(paramsError('id', 'is required.').message).toBe('Invalid params: id is required.');
  });
});
