/**
 * Webhook endpoints, their secrets, the outbox's deliveries and their attempts (docs/webhooks.md), on the primary:
 * the delivery worker claims what it sends, so it must read what was just written.
 */
import { randomUUID } from 'node:crypto';
import type { SqlPort } from '../sql/port.js';
import {
  type DeliveryState,
  WEBHOOK_ATTEMPT,
  WEBHOOK_DELIVERY,
  WEBHOOK_ENDPOINT,
  WEBHOOK_SECRET,
  type WebhookAttemptRecord,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
  type WebhookSecretRecord,
} from './records.js';

export interface WebhookEndpointInput {
  account_id: number;
  url: string;
  events: readonly string[];
  families: readonly string[];
  types: readonly string[];
  secret: string;
  created_at: string;
}

/** What one attempt ended in, written with the delivery's new state. */
export interface AttemptOutcome {
  delivery_id: number;
  claim_token: string;
  attempted_at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
  response_head: string | null;
  /** delivered, failed (given up), or pending again at `next_attempt_at`. */
  state: DeliveryState;
  next_attempt_at: string | null;
  /** The body sent, kept so that every retry sends the same bytes; null when nothing was sent. */
  payload: string | null;
}

export interface WebhookStore {
  createEndpoint(input: WebhookEndpointInput): Promise<WebhookEndpointRecord>;
  getEndpoint(id: number): Promise<WebhookEndpointRecord | undefined>;
  listEndpoints(accountId: number): Promise<WebhookEndpointRecord[]>;
  /**
   * False when there is no such endpoint. Enabling clears the reason, the failing mark and the notice; disabling
   * dates the notice's acknowledgement `acknowledgedAt` (the account did it itself) or leaves it standing (null).
   */
  setEndpointEnabled(
    id: number,
    enabled: boolean,
    reason: string | null,
    acknowledgedAt?: string | null,
  ): Promise<boolean>;
  /** Disables an enabled endpoint with the reason, its notice standing; false when it was not enabled or is unknown. */
  disableEndpoint(id: number, reason: string): Promise<boolean>;
  /** Acknowledges the notice of a disabled endpoint; false when there is none standing. */
  acknowledgeNotice(id: number, at: string): Promise<boolean>;
  /** Deletes the endpoint with its secrets, deliveries and attempts; false when there is none. */
  deleteEndpoint(id: number): Promise<boolean>;
  /** Adds `secret` as the current one; the current ones until now sign until `overlapUntil`. */
  rotateSecret(endpointId: number, secret: string, now: string, overlapUntil: string): Promise<boolean>;
  /** The secrets that sign at `now`: the current one and those rotated out whose overlap has not ended. */
  signingSecrets(endpointId: number, now: string): Promise<WebhookSecretRecord[]>;
  /**
   * Claims up to `limit` deliveries of enabled endpoints due at `now` and not held by a live claim, until `until`,
   * for one worker: on
   * PostgreSQL rows another transaction is claiming are skipped (`FOR UPDATE SKIP LOCKED`), and a claim is only
   * taken where no live one is, so two workers never hold the same delivery.
   */
  claimDeliveries(now: string, until: string, limit: number): Promise<WebhookDeliveryRecord[]>;
  /**
   * Records an attempt and the delivery's new state, only while the claim is still this worker's (false otherwise);
   * on a success clears the endpoint's failing mark, on a failure sets it when unset.
   */
  finishAttempt(outcome: AttemptOutcome): Promise<boolean>;
  listDeliveries(endpointId: number, limit: number): Promise<WebhookDeliveryRecord[]>;
  getDelivery(id: number): Promise<WebhookDeliveryRecord | undefined>;
  listAttempts(deliveryId: number): Promise<WebhookAttemptRecord[]>;
  /**
   * Sends a delivery again (the same webhook-id and body) as soon as a worker runs; false when unknown or while a
   * worker holds it.
   */
  redeliver(id: number, now: string): Promise<boolean>;
  /** The outbox's backlog: deliveries pending, and when the oldest one's event occurred (null when none is). */
  outboxBacklog(): Promise<{ pending: number; oldest: string | null }>;
}

const ENDPOINT_WRITTEN = WEBHOOK_ENDPOINT.except(
  'id',
  'enabled',
  'disabled_reason',
  'failing_since',
  'notice_acknowledged_at',
);

export class WebhookSqlStore implements WebhookStore {
  constructor(private readonly port: SqlPort) {}

  createEndpoint(input: WebhookEndpointInput): Promise<WebhookEndpointRecord> {
    return this.port.transaction(async (tx) => {
      const endpoint = await WEBHOOK_ENDPOINT.insert(tx, 'webhook_endpoints', input, ENDPOINT_WRITTEN);
      await tx.run('INSERT INTO webhook_secrets (endpoint_id, secret, created_at) VALUES ($1, $2, $3)', [
        endpoint.id,
        input.secret,
        input.created_at,
      ]);
      return endpoint;
    });
  }

  getEndpoint(id: number) {
    return WEBHOOK_ENDPOINT.first(this.port, 'SELECT * FROM webhook_endpoints WHERE id = $1', [id]);
  }

  listEndpoints(accountId: number) {
    return WEBHOOK_ENDPOINT.all(this.port, 'SELECT * FROM webhook_endpoints WHERE account_id = $1 ORDER BY id', [
      accountId,
    ]);
  }

  async setEndpointEnabled(
    id: number,
    enabled: boolean,
    reason: string | null,
    acknowledgedAt: string | null = null,
  ): Promise<boolean> {
    const changed = await this.port.run(
      enabled
        ? `UPDATE webhook_endpoints SET enabled = $2, disabled_reason = NULL, failing_since = NULL,
             notice_acknowledged_at = NULL WHERE id = $1`
        : 'UPDATE webhook_endpoints SET enabled = $2, disabled_reason = $3, notice_acknowledged_at = $4 WHERE id = $1',
      enabled ? [id, true] : [id, false, reason, acknowledgedAt],
    );
    return changed === 1;
  }

  async disableEndpoint(id: number, reason: string): Promise<boolean> {
    const changed = await this.port.run(
      `UPDATE webhook_endpoints SET enabled = $2, disabled_reason = $3, notice_acknowledged_at = NULL
       WHERE id = $1 AND ${this.port.dialect.isTrue('enabled')}`,
      [id, false, reason],
    );
    return changed === 1;
  }

  async acknowledgeNotice(id: number, at: string): Promise<boolean> {
    const changed = await this.port.run(
      `UPDATE webhook_endpoints SET notice_acknowledged_at = $2
       WHERE id = $1 AND NOT ${this.port.dialect.isTrue('enabled')} AND notice_acknowledged_at IS NULL`,
      [id, at],
    );
    return changed === 1;
  }

  async deleteEndpoint(id: number): Promise<boolean> {
    return (await this.port.run('DELETE FROM webhook_endpoints WHERE id = $1', [id])) === 1;
  }

  rotateSecret(endpointId: number, secret: string, now: string, overlapUntil: string): Promise<boolean> {
    return this.port.transaction(async (tx) => {
      if ((await tx.query('SELECT id FROM webhook_endpoints WHERE id = $1', [endpointId])).length === 0) return false;
      await tx.run('UPDATE webhook_secrets SET expires_at = $2 WHERE endpoint_id = $1 AND expires_at IS NULL', [
        endpointId,
        overlapUntil,
      ]);
      await tx.run('INSERT INTO webhook_secrets (endpoint_id, secret, created_at) VALUES ($1, $2, $3)', [
        endpointId,
        secret,
        now,
      ]);
      return true;
    });
  }

  signingSecrets(endpointId: number, now: string) {
    return WEBHOOK_SECRET.all(
      this.port,
      `SELECT * FROM webhook_secrets WHERE endpoint_id = $1 AND (expires_at IS NULL OR expires_at > $2)
       ORDER BY id DESC`,
      [endpointId, now],
    );
  }

  claimDeliveries(now: string, until: string, limit: number): Promise<WebhookDeliveryRecord[]> {
    const token = randomUUID();
    const lock = this.port.dialect.name === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
    const free = '(claimed_until IS NULL OR claimed_until <= $1)';
    return WEBHOOK_DELIVERY.all(
      this.port,
      `UPDATE webhook_deliveries SET claimed_until = $2, claim_token = $3
       WHERE id IN (
         SELECT id FROM webhook_deliveries
         WHERE state = 'pending' AND next_attempt_at <= $1 AND ${free}
           AND endpoint_id IN (SELECT id FROM webhook_endpoints WHERE ${this.port.dialect.isTrue('enabled')})
         ORDER BY next_attempt_at, id LIMIT $4 ${lock}
       ) AND ${free}
       RETURNING *`,
      [now, until, token, limit],
    ).then((rows) => rows.sort((a, b) => a.id - b.id));
  }

  finishAttempt(o: AttemptOutcome): Promise<boolean> {
    return this.port.transaction(async (tx) => {
      const held = await tx.run(
        `UPDATE webhook_deliveries SET state = $3, next_attempt_at = COALESCE($4, next_attempt_at),
           attempts = attempts + 1, last_status = $5, payload = COALESCE($6, payload),
           claimed_until = NULL, claim_token = NULL,
           delivered_at = CASE WHEN $3 = 'delivered' THEN $7 ELSE delivered_at END
         WHERE id = $1 AND claim_token = $2`,
        [o.delivery_id, o.claim_token, o.state, o.next_attempt_at, o.status, o.payload, o.attempted_at],
      );
      if (held === 0) return false;
      await tx.run(
        `INSERT INTO webhook_attempts (delivery_id, attempted_at, status, latency_ms, error, response_head)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [o.delivery_id, o.attempted_at, o.status, o.latency_ms, o.error, o.response_head],
      );
      const endpoint = 'id = (SELECT endpoint_id FROM webhook_deliveries WHERE id = $1)';
      if (o.state === 'delivered')
        await tx.run(`UPDATE webhook_endpoints SET failing_since = NULL WHERE ${endpoint}`, [o.delivery_id]);
      else
        await tx.run(`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2) WHERE ${endpoint}`, [
          o.delivery_id,
          o.attempted_at,
        ]);
      return true;
    });
  }

  listDeliveries(endpointId: number, limit: number) {
    return WEBHOOK_DELIVERY.all(
      this.port,
      'SELECT * FROM webhook_deliveries WHERE endpoint_id = $1 ORDER BY id DESC LIMIT $2',
      [endpointId, limit],
    );
  }

  getDelivery(id: number) {
    return WEBHOOK_DELIVERY.first(this.port, 'SELECT * FROM webhook_deliveries WHERE id = $1', [id]);
  }

  listAttempts(deliveryId: number) {
    return WEBHOOK_ATTEMPT.all(this.port, 'SELECT * FROM webhook_attempts WHERE delivery_id = $1 ORDER BY id', [
      deliveryId,
    ]);
  }

  async redeliver(id: number, now: string): Promise<boolean> {
    const changed = await this.port.run(
      `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = $2, claimed_until = NULL, claim_token = NULL
       WHERE id = $1 AND (claimed_until IS NULL OR claimed_until <= $2)`,
      [id, now],
    );
    return changed === 1;
  }
  async outboxBacklog(): Promise<{ pending: number; oldest: string | null }> {
    const [row] = await this.port.query(
      "SELECT COUNT(*) AS pending, MIN(occurred_at) AS oldest FROM webhook_deliveries WHERE state = 'pending'",
    );
    return { pending: Number(row.pending), oldest: (row.oldest as string | null) ?? null };
  }
}
