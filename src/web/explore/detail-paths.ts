/**
 * Where the explorer shows one contract, one buyer or supplier, one signal (docs/explorer.md): the routes are
 * registered from these, and pages outside the explorer (the alert feeds) link to them.
 */
export const DETAIL_PATHS = {
  contract: '/explore/contracts/',
  entity: '/explore/entities/',
  signal: '/explore/signals/',
} as const;

export type DetailView = keyof typeof DETAIL_PATHS;

/** The explorer's address of one record, at the service's public base URL. */
export function detailUrl(baseUrl: string, view: DetailView, id: string | number): string {
  return `${baseUrl}${DETAIL_PATHS[view]}${encodeURIComponent(String(id))}`;
}
