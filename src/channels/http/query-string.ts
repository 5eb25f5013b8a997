/**
 * The REST query string as the core's input: `name=value` pairs, `+` as a space, percent-escapes decoded as UTF-8,
 * a repeated name as an array of its values. Values stay text; the core reads them as their parameter's type and
 * applies the rules for text (src/core/input-values.ts, docs/api.md).
 *
 * Bytes that are not UTF-8 (`%FF`, or `%ED%A0%80`, a UTF-16 surrogate written as UTF-8) are not replaced by U+FFFD,
 * which would search for something the caller did not send: each such byte becomes a lone surrogate, U+DC80 to
 * U+DCFF (Python's "surrogateescape"), which the core refuses like the lone surrogate a JSON string can hold. One
 * rule, the same answer on every channel.
 */

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * The parsed query's class. No prototype to speak of (its prototype has none): `__proto__` or `constructor` is a name
 * like any other, refused as an unknown parameter. A class rather than `Object.create(null)`, whose objects V8 keeps
 * as dictionaries: this runs on every REST request, and the channel then reads and copies the names.
 */
function QueryParameters(): void {}
QueryParameters.prototype = Object.create(null);

export function parseQueryString(query: string): Record<string, string | string[]> {
  const params: Record<string, string | string[]> = new (
    QueryParameters as unknown as new () => Record<string, string | string[]>
  )();
  // `name=value` pairs between `&`s, cut with indexOf: no array of pairs, and text without `%` or `+` is not decoded.
  // The next `=` is searched for again only once passed, so that a long query of pairs without one stays linear.
  let start = 0;
  let eq = -1;
  while (start <= query.length) {
    let end = query.indexOf('&', start);
    if (end < 0) end = query.length;
    if (end > start) {
      if (eq < start) {
        eq = query.indexOf('=', start);
        if (eq < 0) eq = query.length;
      }
      const cut = eq < end ? eq : end;
      const name = decodeComponent(query.slice(start, cut));
      const value = cut === end ? '' : decodeComponent(query.slice(cut + 1, end));
      const seen = params[name];
      if (seen === undefined) params[name] = value;
      else if (Array.isArray(seen)) seen.push(value);
      else params[name] = [seen, value];
    }
    start = end + 1;
  }
  return params;
}

function decodeComponent(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  const spaced = text.replaceAll('+', ' ');
  if (!spaced.includes('%')) return spaced;
  const bytes: number[] = [];
  for (let i = 0; i < spaced.length; i++) {
    const c = spaced.charCodeAt(i);
    if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(spaced.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(spaced.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // Text the client did not escape: its own UTF-8 bytes (a surrogate pair stays one code point).
      const cp = spaced.codePointAt(i) as number;
      if (cp > 0xffff) i++;
      // A lone surrogate is written as the three bytes UTF-8 would give it, which then decode as ill-formed.
      if (cp >= 0xd800 && cp <= 0xdfff) bytes.push(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
      else bytes.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
    }
  }
  return decodeUtf8(Uint8Array.from(bytes));
}

/** UTF-8 to text, each byte of an ill-formed sequence as U+DC80–U+DCFF. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    let text = '';
    let i = 0;
    while (i < bytes.length) {
      const length = sequenceLength(bytes, i);
      if (length === 0) {
        text += String.fromCharCode(0xdc00 + bytes[i]);
        i++;
      } else {
        text += strict.decode(bytes.subarray(i, i + length));
        i += length;
      }
    }
    return text;
  }
}

/** The length of the well-formed UTF-8 sequence at `i` (Unicode Table 3-7), or 0. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b0 = bytes[i];
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < bytes.length && bytes[i + k] >= lo && bytes[i + k] <= hi;
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 === 0xe0) return cont(1, 0xa0) && cont(2) ? 3 : 0;
  if ((b0 >= 0xe1 && b0 <= 0xec) || b0 === 0xee || b0 === 0xef) return cont(1) && cont(2) ? 3 : 0;
  if (b0 === 0xed) return cont(1, 0x80, 0x9f) && cont(2) ? 3 : 0;
  if (b0 === 0xf0) return cont(1, 0x90) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xf1 && b0 <= 0xf3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 === 0xf4) return cont(1, 0x80, 0x8f) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}
