/**
 * HTML written with a tagged template that escapes every interpolated value unless it is markup made by this
 * same tag (or `raw`): pages never build markup from unescaped text.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export class Markup {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Value = string | number | boolean | null | undefined | Markup | readonly Value[];

function render(value: Value): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Markup) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Markup {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Markup(out);
}

/** Markup that is already safe (the page's own constant fragments). */
export function raw(text: string): Markup {
  return new Markup(text);
}

/**
 * JSON for a `<script type="application/json">` block: `<` is written `\u003c` so that no value can close the
 * element, whatever text it holds.
 */
export function jsonScript(value: unknown): Markup {
  return new Markup(JSON.stringify(value).replace(/</g, '\\u003c'));
}
