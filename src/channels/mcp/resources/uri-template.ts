/**
 * URI templates of RFC 6570's simplest form, the one resource templates here use: `{name}` expressions, each
 * standing for one whole path segment (`munidata://indicators/{key}/series/{code}`). A value is percent-encoded
 * on expansion and decoded on match, so a segment never carries a `/`.
 */
export class UriTemplate {
  readonly template: string;
  /** The variables, in the order they appear. */
  readonly names: readonly string[];
  readonly #pattern: RegExp;

  constructor(template: string) {
    this.template = template;
    this.names = [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]);
    const literal = template.split(/\{[a-z_]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#pattern = new RegExp(`^${literal.join('([^/?#]+)')}$`);
  }

  /** The variables of a URI this template produced, decoded; undefined when it did not produce it. */
  match(uri: string): Record<string, string> | undefined {
    const found = this.#pattern.exec(uri);
    if (found === null) return undefined;
    try {
      return Object.fromEntries(this.names.map((name, i) => [name, decodeURIComponent(found[i + 1])]));
    } catch {
      return undefined; // a malformed escape: no URI this template makes
    }
  }

  expand(values: Readonly<Record<string, string>>): string {
    return this.template.replace(/\{([a-z_]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
  }
}
