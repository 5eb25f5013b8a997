/**
 * The outbox: inside the transaction of the change that causes them, one delivery per event and enabled endpoint
 * that takes it (its event types, and for signal and case events its families and types; an alert match only to
 * its own account's endpoints). Endpoints are few, so they are read once per transaction and filtered here.
 */
import { randomUUID } from 'node:crypto';
import type { SqlPort } from '../sql/port.js';
import { WEBHOOK_ENDPOINT, type WebhookEndpointRecord, type WebhookEvent } from './records.js';

export async function enqueueWebhookEvents(tx: SqlPort, events: readonly WebhookEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const endpoints = await WEBHOOK_ENDPOINT.all(
    tx,
    `SELECT * FROM webhook_endpoints WHERE ${tx.dialect.isTrue('enabled')} ORDER BY id`,
  );
  if (endpoints.length === 0) return 0;
  const rows: unknown[][] = [];
  for (const event of events)
    for (const endpoint of endpoints)
      if (takes(endpoint, event))
        rows.push([
          endpoint.id,
          `msg_${randomUUID().replaceAll('-', '')}`,
          event.type,
          event.resource_id,
          event.occurred_at,
          // Due at once; written as the worker's clock is compared (to the millisecond).
          new Date(event.occurred_at).toISOString(),
        ]);
  if (rows.length === 0) return 0;
  const batch = tx.dialect.rows('$1', [
    ['endpoint_id', 'integer'],
    ['message_id', 'text'],
    ['event_type', 'text'],
    ['resource_id', 'bigint'],
    ['occurred_at', 'text'],
    ['due', 'text'],
  ]);
  return tx.run(
    `INSERT INTO webhook_deliveries (endpoint_id, message_id, event_type, resource_id, occurred_at, next_attempt_at)
     SELECT d.endpoint_id, d.message_id, d.event_type, d.resource_id, d.occurred_at, d.due
     FROM ${batch} AS d WHERE true ORDER BY d.ord`,
    [JSON.stringify(rows)],
  );
}

export function takes(endpoint: WebhookEndpointRecord, event: WebhookEvent): boolean {
  if (!endpoint.events.includes(event.type)) return false;
  if (event.account_id !== null && event.account_id !== endpoint.account_id) return false;
  // Families and types select signals and cases; an alert match is already the account's own choice.
  if (event.type === 'alert_match.created') return true;
  if (endpoint.families.length > 0 && (event.family === null || !endpoint.families.includes(event.family)))
    return false;
  if (endpoint.types.length > 0 && (event.subtype === null || !endpoint.types.includes(event.subtype))) return false;
  return true;
}
