/** A request header's value as one string: Node gives a list for the few headers it lets repeat; the first counts. */
export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
