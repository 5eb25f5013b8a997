/**
 * A delivery's body (docs/webhooks.md, Events): `{type, timestamp, data}` with `data` the JSON the REST resource
 * gives — `GET /v1/alert-matches` row, `GET /v1/signals/{id}`, `GET /v1/signal-cases/{id}` — rendered by the same
 * functions the operations use, as the resource stands at the first attempt. Null with a reason when there is
 * nothing to send: the resource is gone, or the account's plan no longer includes its domain.
 */
import { ReferenceData } from '../core/reference.js';
import type { Domain } from '../lib/domains.js';
import { matchesSynthetic, toAlertMatch } from '../operations/alerts/resources.js';
import { indicatorSynthetic, toCaseDetail, toSignalDetail } from '../operations/signals/resources.js';
import { signalContractId } from '../operations/signals/signal-contract.js';
import type { Store } from '../store/store.js';
import type { WebhookDeliveryRecord, WebhookEventType } from '../store/webhooks/records.js';

/** The data domain whose resource each event carries: an account's plan must include it. */
export const EVENT_DOMAIN: Record<WebhookEventType, Domain> = {
  'alert_match.created': 'alerts',
  'signal.created': 'signals',
  'case.stage_changed': 'signals',
};

export type Rendered = { body: string } | { refused: string };

export async function renderDelivery(
  store: Store,
  reference: ReferenceData,
  accountId: number,
  delivery: WebhookDeliveryRecord,
): Promise<Rendered> {
  const account = await store.getAccount(accountId);
  const plan = account && (await store.getPlan(account.plan_code));
  const domain = EVENT_DOMAIN[delivery.event_type];
  if (!plan?.domains.includes(domain)) return { refused: `the account's plan does not include ${domain}` };
  const data = await resourceOf(store, reference, plan.judge, delivery);
  if (data === undefined) return { refused: `${delivery.event_type} ${delivery.resource_id} is no longer stored` };
  return { body: JSON.stringify({ type: delivery.event_type, timestamp: delivery.occurred_at, data }) };
}

async function resourceOf(store: Store, reference: ReferenceData, judge: boolean, d: WebhookDeliveryRecord) {
  const synthetic = indicatorSynthetic(reference);
  switch (d.event_type) {
    case 'alert_match.created': {
      const match = await store.getAlertMatch(d.resource_id);
      if (!match) return undefined;
      const [isSynthetic] = await matchesSynthetic(store, reference, [match]);
      return toAlertMatch(match, judge, isSynthetic);
    }
    case 'signal.created': {
      const signal = await store.getSignal(d.resource_id);
      return signal && toSignalDetail(signal, synthetic, await signalContractId(store, signal.key));
    }
    case 'case.stage_changed': {
      const found = await store.getCase(d.resource_id);
      return found && toCaseDetail(found, synthetic);
    }
  }
}

/** The reference data the resources need (municipalities and the indicator catalogue), read once per run. */
export async function referenceFor(store: Store): Promise<ReferenceData> {
  const [municipalities, indicators] = await Promise.all([store.listMunicipalities(), store.listIndicators()]);
  return new ReferenceData({ version: 0, municipalities, indicators, betaGates: [] });
}
