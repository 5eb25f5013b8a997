/** `If-None-Match` against an entity tag, with weak comparison (RFC 9110 §13.1.2): `W/` prefixes are ignored. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const target = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === target);
}
