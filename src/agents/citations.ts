/**
 * Citations: every figure a procurement skill gives names where it comes from — the source record on the
 * public portal (`source`, the record's own link) and this service's REST route that serves the same record or
 * the same list (`rest`), so a reader can check it.
 */

export interface Citation {
  /** The record on its source (the portal's link); null when the source gives none or the figure sums a list. */
  readonly source: string | null;
  /** This service's REST route that answers the record, or the list the figure is computed from. */
  readonly rest: string;
}

/** A REST URL of the data service: path plus query (undefined values left out, arrays repeated), in the order given. */
export function restUrl(baseUrl: string, path: string, query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  const search = params.toString();
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}

export function contractCitation(baseUrl: string, contract: { id: number; link: string | null }): Citation {
  return { source: contract.link, rest: restUrl(baseUrl, `/v1/procurement/contracts/${contract.id}`) };
}

/** Euros rounded to cents. */
export function euros(value: number): number {
  return Math.round(value * 100) / 100;
}

/** `1234567.8` → `1 234 567.80 €` (a plain, locale-free spelling for text parts). */
export function formatEuros(value: number | null): string {
  if (value === null) return 'n/a';
  const [whole, cents] = euros(value).toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')}.${cents} €`;
}
