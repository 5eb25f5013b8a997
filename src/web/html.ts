/**
 * HTML safe by default, for every page the service renders: the `html` tag escapes each interpolated value (text
 * and attribute values alike, quotes included) unless it is `Html` — made by this tag, or by `trusted` for a
 * constant fragment. Arrays are joined; null, undefined and false render nothing. Pages never build markup from
 * unescaped text, and this is the one escape table of the service.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Markup that is safe to send as it is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = string | number | boolean | null | undefined | Html | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0];
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1];
  return new Html(out);
}

/** Markup written by the service itself (a constant fragment), never text from a request or the store. */
export function trusted(text: string): Html {
  return new Html(text);
}

/**
 * JSON for a `<script type="application/json">` block: `<` is written `\u003c` so that no value can close the
 * element, whatever text it holds.
 */
export function jsonScript(value: unknown): Html {
  return new Html(JSON.stringify(value).replace(/</g, '\\u003c'));
}

/** The items with `separator` between them (an array alone is joined with nothing). */
export function joined(items: readonly HtmlValue[], separator: string): Html {
  return new Html(items.map(render).join(render(separator)));
}
