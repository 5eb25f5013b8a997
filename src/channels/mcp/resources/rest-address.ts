/**
 * The REST address of an operation's answer for an input (`{base_url}/v1/…?…`): the URI of an answer a prompt
 * embeds that no resource template names (a list with filters), which a client can also fetch itself with its key.
 */
import type { AnyOperation } from '../../../core/operation.js';

export function restAddress(
  baseUrl: string,
  operation: AnyOperation,
  input: Readonly<Record<string, unknown>>,
): string {
  const inPath = new Set<string>();
  const path = operation.rest.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    inPath.add(name);
    return encodeURIComponent(String(input[name]));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    if (inPath.has(name) || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(name, String(item));
  }
  const search = query.toString();
  return `${baseUrl}${path}${search === '' ? '' : `?${search}`}`;
}
