/** Webhook endpoints, deliveries and attempts as the store reads them (docs/webhooks.md). */
import { flag, int, intOrNull, json, recordCodec, text, textOrNull } from '../shared/record-codec.js';

export const WEBHOOK_EVENT_TYPES = ['alert_match.created', 'signal.created', 'case.stage_changed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export interface WebhookEndpointRecord {
  id: number;
  account_id: number;
  url: string;
  events: WebhookEventType[];
  families: string[];
  types: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: string | null;
  created_at: string;
  /** When the account acknowledged the notice of its disabling; null: the notice stands while it is disabled. */
  notice_acknowledged_at: string | null;
}

export const WEBHOOK_ENDPOINT = recordCodec<WebhookEndpointRecord>({
  id: int,
  account_id: int,
  url: text,
  events: json,
  families: json,
  types: json,
  enabled: flag,
  disabled_reason: textOrNull,
  failing_since: textOrNull,
  created_at: text,
  notice_acknowledged_at: textOrNull,
});

export interface WebhookSecretRecord {
  id: number;
  endpoint_id: number;
  secret: string;
  created_at: string;
  expires_at: string | null;
}

export const WEBHOOK_SECRET = recordCodec<WebhookSecretRecord>({
  id: int,
  endpoint_id: int,
  secret: text,
  created_at: text,
  expires_at: textOrNull,
});

export type DeliveryState = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveryRecord {
  id: number;
  endpoint_id: number;
  message_id: string;
  event_type: WebhookEventType;
  resource_id: number;
  occurred_at: string;
  payload: string | null;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: string;
  claimed_until: string | null;
  claim_token: string | null;
  last_status: number | null;
  delivered_at: string | null;
}

export const WEBHOOK_DELIVERY = recordCodec<WebhookDeliveryRecord>({
  id: int,
  endpoint_id: int,
  message_id: text,
  event_type: text,
  resource_id: int,
  occurred_at: text,
  payload: textOrNull,
  state: text,
  attempts: int,
  next_attempt_at: text,
  claimed_until: textOrNull,
  claim_token: textOrNull,
  last_status: intOrNull,
  delivered_at: textOrNull,
});

export interface WebhookAttemptRecord {
  id: number;
  delivery_id: number;
  attempted_at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
  response_head: string | null;
}

export const WEBHOOK_ATTEMPT = recordCodec<WebhookAttemptRecord>({
  id: int,
  delivery_id: int,
  attempted_at: text,
  status: intOrNull,
  latency_ms: int,
  error: textOrNull,
  response_head: textOrNull,
});

/** What a change announces, written to the outbox with it. */
export interface WebhookEvent {
  type: WebhookEventType;
  resource_id: number;
  /** The account the event belongs to (an alert match's); null: any account's endpoints may take it. */
  account_id: number | null;
  /** A signal's or case's family and type, which endpoints filter on. */
  family: string | null;
  subtype: string | null;
  occurred_at: string;
}
