/**
 * How deeply a JSON-RPC message may nest. JSON.parse reads any depth, but what reads the value next — JSON.stringify
 * (a company agent's stored task message), schema validation, the answer's echo — recurses and overflows the stack
 * on a body of 1 MiB of brackets. The bound is checked once, where the envelope is parsed (`parseJsonRpc`), for
 * every JSON-RPC endpoint (docs/a2a.md, docs/mcp.md, "Limits").
 */

/** The most levels `params` may nest: `params` itself is level 1, so `{"a": {"b": 1}}` is 2 deep. */
export const MAX_PARAMS_DEPTH = 64;

/**
 * Whether `value` nests more than `limit` levels of objects and arrays (a scalar is 0 deep); iterative, no recursion.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
