/**
 * Links plain ES modules into one classic script, so that an MCP Apps view can carry the drawing modules inline
 * (its document has no URL to import from, and the extension's CSP allows inline script only). It knows the two
 * forms the drawing modules use: `import { a, b as c } from './x.js'` and `export function|const|class name`; any
 * other import or export is refused at start, so a module written otherwise is caught before a host sees it.
 * Each module becomes a function scope returning its exports, placed after the modules it imports.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

const IMPORT = /^import\s*\{([^}]*)\}\s*from\s*'(\.{1,2}\/[^']+)';[ \t]*$/gm;
const EXPORT = /^export\s+((?:async\s+)?function\*?|const|let|class)\s+([A-Za-z_$][\w$]*)/gm;

interface Linked {
  readonly id: string;
  readonly code: string;
}

/** One classic script running `entry` (a path) after every module it imports, each once. */
export function linkModules(entry: string): string {
  const linked: Linked[] = [];
  const ids = new Map<string, string>();
  const visiting = new Set<string>();
  const visit = (path: string): string => {
    const known = ids.get(path);
    if (known !== undefined) return known;
    if (visiting.has(path)) throw new Error(`${path}: a cycle of imports cannot be linked`);
    visiting.add(path);
    const source = readFileSync(path, 'utf8');
    const bindings: string[] = [];
    const body = source.replace(IMPORT, (_all, names: string, from: string) => {
      bindings.push(`const { ${destructuring(names)} } = ${visit(resolve(dirname(path), from))};`);
      return '';
    });
    const exported: string[] = [];
    const code = body.replace(EXPORT, (_all, kind: string, name: string) => {
      exported.push(name);
      return `${kind} ${name}`;
    });
    const stray = /^\s*(import|export)\b.*$/m.exec(code.replace(/\/\*[\s\S]*?\*\//g, ''));
    if (stray) throw new Error(`${path}: "${stray[0].trim()}" is a form the module linker does not know`);
    const id = `module${linked.length}`;
    linked.push({
      id,
      code: `const ${id} = (() => {\n${bindings.join('\n')}\n${code}\nreturn { ${exported.join(', ')} };\n})();`,
    });
    ids.set(path, id);
    visiting.delete(path);
    return id;
  };
  visit(resolve(entry));
  return `(() => {\n'use strict';\n${linked.map((m) => m.code).join('\n')}\n})();\n`;
}

/** `a, b as c` → `a, b: c`. */
function destructuring(names: string): string {
  return names
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '')
    .map((n) => n.replace(/^([\w$]+)\s+as\s+([\w$]+)$/, '$1: $2'))
    .join(', ');
}
