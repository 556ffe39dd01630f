import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRecord {
  id: number;
  deliveryId: string;
  webhookId: number;
  eventId: number | null;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
}

export interface AttemptRecord {
  webhookId: number;
  deliveryId: string;
  eventId: number | null;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
}

export interface AttemptView {
  deliveryId: string;
  eventId: number | null;
  attempt: number;
  status: number | null;
  error: string | null;
  durationMs: number;
  at: string;
}

interface DeliveryRow {
  id: number;
  deliveryId: string;
  webhookId: number;
  eventId: number | null;
  type: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: DbTime;
  createdAt: DbTime;
}

interface AttemptRow {
  deliveryId: string;
  eventId: number | null;
  attempt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: DbTime;
}

const DELIVERY_COLUMNS =
  'id, delivery_id AS deliveryId, webhook_id AS webhookId, event_id AS eventId, type, status, attempts, next_attempt_at AS nextAttemptAt, created_at AS createdAt';

function toDelivery(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    deliveryId: row.deliveryId,
    webhookId: row.webhookId,
    eventId: row.eventId,
    type: row.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: dateOf(row.nextAttemptAt),
    createdAt: dateOf(row.createdAt),
  };
}

function toAttempt(row: AttemptRow): AttemptView {
  return {
    deliveryId: row.deliveryId,
    eventId: row.eventId,
    attempt: row.attempt,
    status: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    at: isoTime(row.at)!,
  };
}

/**
 * A webhook's queue and log: `webhook_deliveries` (one row per event to send, pending until
 * delivered or given up) and `webhook_attempts` (one row per HTTP attempt). Writes take the
 * caller's transaction (`tx`); the log and a single delivery are read through SqlReader.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly reader: SqlReader) {}

  /** The oldest pending delivery of the webhook: the head of its queue. */
  async head(tx: Transaction, webhookId: number): Promise<DeliveryRecord | undefined> {
    const row = await tx.one<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? AND status = 'pending' ORDER BY id ASC LIMIT 1`,
      [webhookId],
    );
    return row ? toDelivery(row) : undefined;
  }

  async delivery(webhookId: number, deliveryId: string): Promise<DeliveryRecord | undefined> {
    const row = await this.reader.one<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE webhook_id = ? AND delivery_id = ?`, [
      webhookId,
      deliveryId,
    ]);
    return row ? toDelivery(row) : undefined;
  }

  /** Queues a delivery of `eventId`, due now (the caller has moved the webhook's cursor in the same transaction). */
  async enqueue(tx: Transaction, delivery: { webhookId: number; deliveryId: string; eventId: number; type: string; now: Date }): Promise<void> {
    const t = tx.time(delivery.now);
    await tx.run(
      "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)",
      [delivery.deliveryId, delivery.webhookId, delivery.eventId, delivery.type, t, t],
    );
  }

  /** A delivery outside the queue (test ping, redelivery) is logged like the others: a row, already complete. */
  async insertCompleted(
    tx: Transaction,
    delivery: { deliveryId: string; webhookId: number; eventId: number | null; type: string; status: DeliveryStatus; now: Date },
  ): Promise<void> {
    const t = tx.time(delivery.now);
    await tx.run(
      'INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, status, attempts, next_attempt_at, created_at, completed_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)',
      [delivery.deliveryId, delivery.webhookId, delivery.eventId, delivery.type, delivery.status, t, t, t],
    );
  }

  /** The outcome of one queued attempt: logged, and the delivery moved on (delivered, failed, or retried at `nextAttemptAt`). */
  async recordAttempt(
    tx: Transaction,
    attempt: AttemptRecord,
    outcome: { status: DeliveryStatus; nextAttemptAt?: Date; countsAsAttempt: boolean },
  ): Promise<void> {
    // Discord's 429 is not an attempt: it only postpones the delivery, and is not logged.
    if (outcome.countsAsAttempt) {
      await this.logAttempt(tx, attempt);
    }
    const completed = outcome.status === 'pending' ? null : tx.time(attempt.at);
    await tx.run(
      `UPDATE webhook_deliveries SET status = ?, attempts = attempts + ?, next_attempt_at = ?, completed_at = ? WHERE delivery_id = ?`,
      [outcome.status, outcome.countsAsAttempt ? 1 : 0, tx.time(outcome.nextAttemptAt ?? attempt.at), completed, attempt.deliveryId],
    );
  }

  /** Adds one attempt to the log. */
  async logAttempt(tx: Transaction, attempt: AttemptRecord): Promise<void> {
    await tx.run(
      'INSERT INTO webhook_attempts (webhook_id, delivery_id, event_id, attempt, status_code, error, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [attempt.webhookId, attempt.deliveryId, attempt.eventId, attempt.attempt, attempt.statusCode, attempt.error, attempt.durationMs, tx.time(attempt.at)],
    );
  }

  /** A redelivered delivery that succeeded is delivered; one that failed again stays as it was. */
  async markDelivered(tx: Transaction, deliveryId: string, at: Date): Promise<void> {
    await tx.run("UPDATE webhook_deliveries SET status = 'delivered', completed_at = ? WHERE delivery_id = ?", [tx.time(at), deliveryId]);
  }

  async lastAttemptNumber(tx: Transaction, deliveryId: string): Promise<number> {
    const row = await tx.one<{ attempt: number | null }>('SELECT MAX(attempt) AS attempt FROM webhook_attempts WHERE delivery_id = ?', [deliveryId]);
    return row?.attempt ?? 0;
  }

  /** The deliveries log: the latest `limit` attempts, newest first. */
  async attempts(webhookId: number, limit = 100): Promise<AttemptView[]> {
    const rows = await this.reader.all<AttemptRow>(
      'SELECT delivery_id AS deliveryId, event_id AS eventId, attempt, status_code AS statusCode, error, duration_ms AS durationMs, at FROM webhook_attempts WHERE webhook_id = ? ORDER BY id DESC LIMIT ?',
      [webhookId, limit],
    );
    return rows.map(toAttempt);
  }

  /** Removes the webhook's whole queue and log (before the webhook row itself goes). */
  async deleteForWebhook(tx: Transaction, webhookId: number): Promise<void> {
    await tx.run('DELETE FROM webhook_attempts WHERE webhook_id = ?', [webhookId]);
    await tx.run('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [webhookId]);
  }

  /** Deletes finished deliveries and attempts older than `cutoff`; pending deliveries stay. */
  async deleteOlderThan(tx: Transaction, cutoff: Date): Promise<{ deliveries: number; attempts: number }> {
    const t = tx.time(cutoff);
    const attempts = (await tx.run('DELETE FROM webhook_attempts WHERE at < ?', [t])).affectedRows;
    const deliveries = (await tx.run("DELETE FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending'", [t])).affectedRows;
    return { deliveries, attempts };
  }
}
