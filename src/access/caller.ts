/** Who is calling: the authenticated key, its account and the account's plan, read once per request. */
import type { Scope } from '../lib/domains.js';
import type { AccountRecord, PlanRecord } from '../store/records.js';

export interface Caller {
  readonly keyId: number;
  readonly scopes: readonly Scope[];
  readonly account: AccountRecord;
  readonly plan: PlanRecord;
}
