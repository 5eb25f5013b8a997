/**
 * `tools/call` results as JSON text, built around the core's already-serialised answer: no parse and
 * re-stringify on the hot path. The same JSON goes into `structuredContent` and, for clients that read only
 * content blocks, into one text block (MCP 2025-06-18 and 2025-11-25, tools: structured content).
 */
import type { FileLink } from '../../core/operation.js';
import type { Problem } from '../../lib/errors.js';

/** A failed tool call as the `tools/call` result (JSON text): `isError`, the problem as structured content and text. */
export function errorResultJson(problem: Problem): string {
  const json = JSON.stringify(problem);
  return `{"content":[{"type":"text","text":${JSON.stringify(json)}}],"structuredContent":${json},"isError":true}`;
}

/**
 * A successful tool call: the answer (already JSON text) as structured content and as text, then a `resource_link`
 * block for each file the answer lists, which a client can fetch or attach (MCP 2025-06-18 on, tools: resource links).
 */
export function successResultJson(answerJson: string, wrapsArray: boolean, files: readonly FileLink[] = []): string {
  const structured = wrapsArray ? `{"items":${answerJson}}` : answerJson;
  const links = files.map((file) => `,${JSON.stringify(resourceLink(file))}`).join('');
  return `{"content":[{"type":"text","text":${JSON.stringify(structured)}}${links}],"structuredContent":${structured}}`;
}

function resourceLink(file: FileLink) {
  return {
    type: 'resource_link',
    uri: file.url,
    name: file.name,
    title: file.title,
    mimeType: file.mediaType,
    size: file.sizeBytes,
  };
}

/**
 * The UTF-8 bytes of successful results, by the answer's JSON text: agents repeat calls (the same page of the same
 * tool), and escaping the answer into the text block and encoding twice its size is then done once per distinct
 * answer. Bounded in bytes; the oldest entries go first. The answer text is the key, so an entry can never be
 * served for another answer.
 */
export class SuccessResultCache {
  readonly #maps = [new Map<string, Buffer>(), new Map<string, Buffer>()];
  #bytes = 0;

  constructor(
    readonly maxBytes = 16 * 1024 * 1024,
    /** Answers larger than this are built every time. */
    readonly maxEntryBytes = 512 * 1024,
  ) {}

  get(answerJson: string, wrapsArray: boolean): Buffer {
    const map = this.#maps[wrapsArray ? 1 : 0];
    const hit = map.get(answerJson);
    if (hit !== undefined) return hit;
    const bytes = Buffer.from(successResultJson(answerJson, wrapsArray));
    const cost = bytes.length + answerJson.length * 2;
    if (cost > this.maxEntryBytes) return bytes;
    while (this.#bytes + cost > this.maxBytes && this.#evictOldest()) {}
    map.set(answerJson, bytes);
    this.#bytes += cost;
    return bytes;
  }

  #evictOldest(): boolean {
    for (const map of this.#maps) {
      const oldest = map.keys().next();
      if (!oldest.done) {
        const bytes = map.get(oldest.value) as Buffer;
        map.delete(oldest.value);
        this.#bytes -= bytes.length + oldest.value.length * 2;
        return true;
      }
    }
    return false;
  }
}
