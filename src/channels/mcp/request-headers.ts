/**
 * The request headers of the modern era (MCP 2026-07-28, Streamable HTTP, "Request Metadata"): the client mirrors
 * the protocol version, the method and, for `tools/call`, the tool name into `MCP-Protocol-Version`, `Mcp-Method`
 * and `Mcp-Name`, so that proxies can route on them. The server checks that they say what the body says: a
 * gateway routing on the header and this server running the body must never see two different requests.
 * A header that is missing, malformed or different from the body is HTTP 400 with -32020 (HeaderMismatch).
 */

/** Header values arrive as Node gives them (lower-case names; repeated headers as an array, refused). */
export type Headers = Readonly<Record<string, string | string[] | undefined>>;

/** What is wrong with a header: the message of the -32020 answer. */
export class HeaderMismatch extends Error {}

/**
 * A header the client mirrors from the body: its name as messages spell it, the key Node files it under (lower
 * case, a constant: a key computed per request is a new string to hash on every lookup), and whether a value that
 * is not plain ASCII comes in the Base64 sentinel form (`Mcp-Name`).
 */
export interface MirroredHeader {
  readonly name: string;
  readonly key: string;
  readonly decodes: boolean;
}

function mirrored(name: string, decodes: boolean): MirroredHeader {
  return Object.freeze({ name, key: name.toLowerCase(), decodes });
}

export const PROTOCOL_VERSION_HEADER = mirrored('MCP-Protocol-Version', false);
export const METHOD_HEADER = mirrored('Mcp-Method', false);
export const NAME_HEADER = mirrored('Mcp-Name', true);

/** The Base64 sentinel of a value that is not plain ASCII (`=?base64?…?=`, markers case-sensitive). */
const SENTINEL_START = '=?base64?';
const SENTINEL = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/;
/** Visible ASCII, space and tab (RFC 9110 field values), the characters a plain value may carry. */
const PLAIN = /^[\x20-\x7e\t]*$/;
/** Visible ASCII only: a value with nothing to trim and nothing a header may not carry. */
const VISIBLE = /^[\x21-\x7e]+$/;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The header's value, decoded when it is in the Base64 sentinel form (`Mcp-Name`); undefined when the header is
 * absent. Surrounding whitespace is not part of a field value (Node's parser already drops it).
 */
export function headerValue(headers: Headers, header: MirroredHeader): string | undefined {
  const { name } = header;
  const raw = headers[header.key];
  if (raw === undefined) return undefined;
  if (Array.isArray(raw)) throw new HeaderMismatch(`${name} must be sent once.`);
  const value = raw.trim();
  if (!PLAIN.test(value))
    throw new HeaderMismatch(`${name} carries characters a header may not: send it as =?base64?…?=.`);
  if (!header.decodes || !(value.startsWith(SENTINEL_START) && value.endsWith('?='))) return value;
  const match = SENTINEL.exec(value);
  if (!match || match[1].length % 4 !== 0)
    throw new HeaderMismatch(`${name} is not valid Base64 between =?base64? and ?=.`);
  try {
    return UTF8.decode(Buffer.from(match[1], 'base64'));
  } catch {
    throw new HeaderMismatch(`${name} is not the Base64 of UTF-8 text.`);
  }
}

/** Checks that a required header is present and equal to the body's value (case-sensitive, as header values are). */
export function expectHeader(headers: Headers, header: MirroredHeader, bodyValue: string, bodyField: string): void {
  const raw = headers[header.key];
  // What every well-behaved client sends, the body's own value in visible ASCII (and, for a decoding header, not in
  // the sentinel form): the value `headerValue` would give is that same string, so the checks below would pass.
  if (raw === bodyValue && VISIBLE.test(raw) && !(header.decodes && raw.startsWith(SENTINEL_START))) return;
  const value = headerValue(headers, header);
  const { name } = header;
  if (value === undefined)
    throw new HeaderMismatch(`Header mismatch: the ${name} header is required (it must equal ${bodyField}).`);
  if (value !== bodyValue) {
    throw new HeaderMismatch(
      `Header mismatch: ${name} header value ${JSON.stringify(value)} does not ` +
        `match ${bodyField} ${JSON.stringify(bodyValue)}.`,
    );
  }
}
