/**
 * What a picture shows, said on it (docs/explorer.md, data marks): real data, generated (demo) data, or both. The
 * explorer's pictures and the MCP Apps views (src/channels/mcp/apps/) both carry it.
 */
import { h } from './dom.js';

/** Every picture says what it shows: real data, or generated (demo) data; nothing when the answers do not say. */
export function dataMark(synthetic) {
  if (synthetic === true) {
    return h(
      'p',
      { class: 'data-mark synthetic', role: 'note' },
      h('strong', {}, 'Generated data'),
      ' — synthetic demo figures, not real statistics.',
    );
  }
  if (synthetic === 'mixed') {
    return h(
      'p',
      { class: 'data-mark mixed', role: 'note' },
      h('strong', {}, 'Real and generated data'),
      ' — each figure below says which it is.',
    );
  }
  if (synthetic === false) {
    return h(
      'p',
      { class: 'data-mark real', role: 'note' },
      h('strong', {}, 'Real data'),
      ' — from public sources, each with its licence in /v1/sources.',
    );
  }
  return null;
}

/** Real (false), generated (true) or both ('mixed'), from every `synthetic` an answer holds; undefined if none. */
export function provenanceOf(answer) {
  const kinds = new Set();
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'synthetic' && typeof inner === 'boolean') kinds.add(inner);
        else walk(inner);
      }
    }
  };
  walk(answer);
  return kinds.size === 2 ? 'mixed' : kinds.size === 1 ? kinds.has(true) : undefined;
}
