/**
 * Response compression for the REST channel (br, then gzip), done here rather than by a global plugin so that
 * an answer the core took from its cache is compressed once, not on every request: encoded bytes are kept beside
 * the body they encode (a WeakMap on the body Buffer, so they go when the cached answer goes).
 *
 * A streamed body (a bulk file) is compressed on its way out, with the same settings (`encodingStream`).
 *
 * Bodies under 1 KiB go as they are (compression would barely shrink them and costs more than it saves).
 * Brotli runs at quality 5 and gzip at level 6: close to their best ratios on JSON and CSV at a fraction of
 * brotli's default quality 11, which takes tens of milliseconds on a large page.
 */
import type { Transform } from 'node:stream';
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

export const MIN_COMPRESSED_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const BROTLI_OPTIONS = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
};
const GZIP_OPTIONS = { level: 6 };

/** The `Accept-Encoding` headers seen, parsed once (clients send a handful of distinct values). */
const negotiated = new Map<string, ContentEncoding | undefined>();
const MAX_NEGOTIATED = 256;

/** The encoding to answer in: br when accepted, else gzip, else none (identity). */
export function negotiateEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  if (negotiated.has(acceptEncoding)) return negotiated.get(acceptEncoding);
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: ContentEncoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const choice = weight('br') > 0 && weight('br') >= weight('gzip') ? 'br' : weight('gzip') > 0 ? 'gzip' : undefined;
  if (negotiated.size >= MAX_NEGOTIATED) negotiated.clear();
  negotiated.set(acceptEncoding, choice);
  return choice;
}

const encodedBodies = new WeakMap<Buffer, Partial<Record<ContentEncoding, Promise<Buffer>>>>();

/**
 * `body` in `encoding`: computed once per body and encoding (concurrent requests for the same cached answer
 * share one compression).
 */
export function encodeBody(body: Buffer, encoding: ContentEncoding): Promise<Buffer> {
  let forBody = encodedBodies.get(body);
  if (!forBody) {
    forBody = {};
    encodedBodies.set(body, forBody);
  }
  let encoded = forBody[encoding];
  if (!encoded) {
    encoded = encoding === 'br' ? brotli(body, BROTLI_OPTIONS) : gzipAsync(body, GZIP_OPTIONS);
    forBody[encoding] = encoded;
  }
  return encoded;
}

/** A compressor for a body sent as it is made (a bulk file), with the settings of `encodeBody`. */
export function encodingStream(encoding: ContentEncoding): Transform {
  return encoding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip(GZIP_OPTIONS);
}
