/**
 * The data domains and the scopes that guard them, described once.
 * Plans name domains, keys carry scopes, operations point at one domain; docs and cards read these texts.
 */

export const DOMAINS = {
  indicators: {
    scope: 'indicators:read',
    description: 'Indicator catalogue, per-municipality series, snapshots and statistics; the 308 municipalities.',
  },
  signals: {
    scope: 'signals:read',
    description: 'Municipal signals (detected items with a family, a type and a confidence) and signal cases.',
  },
  procurement: {
    scope: 'procurement:read',
    description: 'Public procurement: contracts, entities, announcements and amendments.',
  },
  alerts: {
    scope: 'alerts:read',
    description: "The caller's alert rules and the matches on them.",
  },
  // Not a body of data but a way to take it: each dataset of the plan's other domains, whole, as one file. A domain
  // because plans, keys, beta gates and refusals already speak in domains (docs/api.md, Bulk download).
  bulk: {
    scope: 'bulk:read',
    description:
      "Bulk download: each dataset of the plan's other data domains, whole, as one CSV file (one request of quota " +
      'each).',
  },
} as const;

export type Domain = keyof typeof DOMAINS;
export type Scope = (typeof DOMAINS)[Domain]['scope'];

export const DOMAIN_NAMES = Object.keys(DOMAINS) as Domain[];
export const SCOPES = DOMAIN_NAMES.map((d) => DOMAINS[d].scope) as Scope[];

export function isDomain(value: string): value is Domain {
  return Object.hasOwn(DOMAINS, value);
}

export function isScope(value: string): value is Scope {
  return (SCOPES as string[]).includes(value);
}

/** The tag of operations outside every data domain (`me`). */
export const ACCOUNT_TAG = 'account';
export const ACCOUNT_TAG_DESCRIPTION = "The caller's own account: plan, scopes, data domains, limits and usage.";
