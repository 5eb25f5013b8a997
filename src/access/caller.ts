/** Who is calling: the authenticated key or OAuth grant, its account and the account's plan, read once per request. */
import type { Scope } from '../lib/domains.js';
import type { AccountRecord, PlanRecord } from '../store/records.js';

export interface Caller {
  /** The API key; null when the caller presented an OAuth access token. */
  readonly keyId: number | null;
  /** The OAuth grant (an app the account holder connected) when the caller presented an access token. */
  readonly oauth?: { readonly grantId: string; readonly clientId: string };
  readonly scopes: readonly Scope[];
  readonly account: AccountRecord;
  readonly plan: PlanRecord;
}
