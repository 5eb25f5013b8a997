/**
 * A gzip-compressed export (`contratos-2024-01-02.json.gz`, as the project keeps its real data in data/real/): the
 * bytes inside, and the file's name without `.gz`, which the format is told from.
 */
import { gunzipSync } from 'node:zlib';

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** @throws Error with the reason when the stream is damaged or truncated. */
export function gunzipped(bytes: Buffer, name: string): { bytes: Buffer; name: string } {
  let inside: Buffer;
  try {
    inside = gunzipSync(bytes);
  } catch (error) {
    throw new Error(`not a readable gzip file (${(error as Error).message})`);
  }
  return { bytes: inside, name: name.replace(/\.gz$/i, '') };
}
