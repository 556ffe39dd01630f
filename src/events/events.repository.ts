import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DateUtils } from 'typeorm/util/DateUtils';
import { executeCountingRows } from '../database/affected-rows';
import { SqlReader } from '../database/sql-reader';
import { isoTime } from '../database/transformers';
import type { EventType, EventView } from './event.types';

export type WebhookFormat = 'json' | 'discord';
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A webhook row: the full URL and the secret stay on the server. */
export interface WebhookRecord {
  id: number;
  url: string;
  events: string[];
  format: WebhookFormat;
  secret: string;
  active: boolean;
  failing: boolean;
  createdAt: string;
  lastDeliveryAt: string | null;
  cursorEventId: number;
}

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

interface EventRow {
  id: number | string;
  type: EventType;
  data: string;
  at: Date | string;
}

interface WebhookRow {
  id: number | string;
  url: string;
  events: string;
  format: WebhookFormat;
  secret: string;
  active: number | string | boolean;
  failing: number | string | boolean;
  createdAt: Date | string;
  lastDeliveryAt: Date | string | null;
  cursorEventId: number | string;
}

interface DeliveryRow {
  id: number | string;
  deliveryId: string;
  webhookId: number | string;
  eventId: number | string | null;
  type: string;
  status: DeliveryStatus;
  attempts: number | string;
  nextAttemptAt: Date | string;
  createdAt: Date | string;
}

const EVENT_COLUMNS = 'id, type, data, at';
const WEBHOOK_COLUMNS =
  'id, url, events, format, secret, active, failing, created_at AS createdAt, last_delivery_at AS lastDeliveryAt, cursor_event_id AS cursorEventId';
const DELIVERY_COLUMNS =
  'id, delivery_id AS deliveryId, webhook_id AS webhookId, event_id AS eventId, type, status, attempts, next_attempt_at AS nextAttemptAt, created_at AS createdAt';

function toEvent(row: EventRow): EventView {
  return { id: Number(row.id), type: row.type, at: isoTime(row.at)!, data: JSON.parse(row.data) as Record<string, unknown> };
}

function truthy(value: number | string | boolean): boolean {
  return value === true || Number(value) === 1;
}

function toWebhook(row: WebhookRow): WebhookRecord {
  return {
    id: Number(row.id),
    url: row.url,
    events: JSON.parse(row.events) as string[],
    format: row.format,
    secret: row.secret,
    active: truthy(row.active),
    failing: truthy(row.failing),
    createdAt: isoTime(row.createdAt)!,
    lastDeliveryAt: isoTime(row.lastDeliveryAt),
    cursorEventId: Number(row.cursorEventId),
  };
}

function toDelivery(row: DeliveryRow): DeliveryRecord {
  return {
    id: Number(row.id),
    deliveryId: row.deliveryId,
    webhookId: Number(row.webhookId),
    eventId: row.eventId === null ? null : Number(row.eventId),
    type: row.type,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: new Date(isoTime(row.nextAttemptAt)!),
    createdAt: new Date(isoTime(row.createdAt)!),
  };
}

/**
 * Every query of the events feature: the outbox (`events`, `event_seq`), webhooks, deliveries
 * and the attempts log. Writes take the caller's transaction (`manager`); reads that must see
 * only committed rows go through SqlReader (on SQLite, TypeORM's one shared connection would show
 * another request's open transaction).
 */
@Injectable()
export class EventsRepository {
  private readonly mysql: boolean;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly reader: SqlReader,
  ) {
    this.mysql = dataSource.options.type === 'mysql';
  }

  /** A DATETIME(3) parameter as each driver stores it (text on SQLite, a Date for mysql2 in UTC). */
  private time(date: Date): Date | string {
    return this.mysql ? date : (DateUtils.mixedDateToUtcDatetimeString(date) as string);
  }

  // ---- the outbox ----

  /**
   * Appends an event in the caller's transaction. The id comes from the one `event_seq` row,
   * locked by the UPDATE until the transaction ends: ids are handed out in commit order.
   */
  async append(manager: EntityManager, type: EventType, data: Record<string, unknown>, at: Date): Promise<number> {
    const id = await this.nextEventId(manager);
    await manager.query('INSERT INTO events (id, type, data, at) VALUES (?, ?, ?, ?)', [id, type, JSON.stringify(data), this.time(at)]);
    return id;
  }

  /** Takes the next event id, one round trip: LAST_INSERT_ID(expr) on MySQL, RETURNING on SQLite. */
  private async nextEventId(manager: EntityManager): Promise<number> {
    if (this.mysql) {
      const header = await manager.query<{ insertId: number | string }>('UPDATE event_seq SET last = LAST_INSERT_ID(last + 1) WHERE id = 1');
      return Number(header.insertId);
    }
    const [row] = await manager.query<Array<{ last: number | string }>>('UPDATE event_seq SET last = last + 1 WHERE id = 1 RETURNING last');
    return Number(row.last);
  }

  /** Committed events with an id above `after`, oldest first. */
  async eventsAfter(after: number, limit: number): Promise<EventView[]> {
    const rows = await this.reader.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [after, limit]);
    return rows.map(toEvent);
  }

  /** The id of the latest committed event (0 when none). */
  async lastEventId(): Promise<number> {
    const row = await this.reader.one<{ last: number | string }>('SELECT last FROM event_seq WHERE id = 1');
    return Number(row?.last ?? 0);
  }

  /** Events above `after` inside the caller's transaction (the worker's view while it holds the lease). */
  async eventsAfterIn(manager: EntityManager, after: number, limit: number): Promise<EventView[]> {
    const rows = await manager.query<EventRow[]>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [after, limit]);
    return rows.map(toEvent);
  }

  async eventById(manager: EntityManager, id: number): Promise<EventView | undefined> {
    const [row] = await manager.query<EventRow[]>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ?`, [id]);
    return row ? toEvent(row) : undefined;
  }

  // ---- webhooks ----

  /** A new webhook starts after the latest committed event: it receives events recorded after its creation. */
  async insertWebhook(manager: EntityManager, input: { url: string; events: string[]; format: WebhookFormat; secret: string; createdAt: Date }): Promise<number> {
    const [seq] = await manager.query<Array<{ last: number | string }>>('SELECT last FROM event_seq WHERE id = 1');
    await manager.query(
      'INSERT INTO webhooks (url, events, format, secret, active, failing, created_at, cursor_event_id) VALUES (?, ?, ?, ?, 1, 0, ?, ?)',
      [input.url, JSON.stringify(input.events), input.format, input.secret, this.time(input.createdAt), Number(seq.last)],
    );
    const [row] = await manager.query<Array<{ id: number | string }>>(
      this.mysql ? 'SELECT LAST_INSERT_ID() AS id' : 'SELECT last_insert_rowid() AS id',
    );
    return Number(row.id);
  }

  async webhooks(): Promise<WebhookRecord[]> {
    return (await this.reader.all<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id ASC`)).map(toWebhook);
  }

  async webhook(id: number): Promise<WebhookRecord | undefined> {
    const row = await this.reader.one<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
    return row ? toWebhook(row) : undefined;
  }

  async webhookIn(manager: EntityManager, id: number): Promise<WebhookRecord | undefined> {
    const [row] = await manager.query<WebhookRow[]>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
    return row ? toWebhook(row) : undefined;
  }

  /** Changes `active`, `events` and/or `url`; re-activating or changing the URL clears `failing`. */
  async updateWebhook(manager: EntityManager, id: number, changes: { active?: boolean; events?: string[]; url?: string }): Promise<void> {
    const sets: string[] = [];
    const parameters: unknown[] = [];
    if (changes.active !== undefined) {
      sets.push('active = ?');
      parameters.push(changes.active ? 1 : 0);
    }
    if (changes.events !== undefined) {
      sets.push('events = ?');
      parameters.push(JSON.stringify(changes.events));
    }
    if (changes.url !== undefined) {
      sets.push('url = ?', 'failing = 0');
      parameters.push(changes.url);
    }
    if (sets.length > 0) {
      await manager.query(`UPDATE webhooks SET ${sets.join(', ')} WHERE id = ?`, [...parameters, id]);
    }
  }

  async deleteWebhook(manager: EntityManager, id: number): Promise<boolean> {
    await manager.query('DELETE FROM webhook_attempts WHERE webhook_id = ?', [id]);
    await manager.query('DELETE FROM webhook_deliveries WHERE webhook_id = ?', [id]);
    return (await executeCountingRows(manager, 'DELETE FROM webhooks WHERE id = ?', [id])) === 1;
  }

  // ---- the delivery lease ----

  /**
   * Active webhooks, free to claim, with something to do now: a due head of their queue, or (with
   * an empty queue) events past their cursor. A webhook waiting to retry its head is left alone,
   * and so are `exclude` (the ones this instance is working on or holding back).
   */
  async webhooksWithWork(now: Date, limit: number, exclude: number[] = []): Promise<number[]> {
    const t = this.time(now);
    const excluded = exclude.length > 0 ? `AND w.id NOT IN (${exclude.map(() => '?').join(', ')})` : '';
    const rows = await this.reader.all<{ id: number | string }>(
      `SELECT w.id FROM webhooks w WHERE w.active = 1 AND (w.lease_holder IS NULL OR w.lease_expires_at < ?) ${excluded}
         AND ((SELECT d.next_attempt_at FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending' ORDER BY d.id ASC LIMIT 1) <= ?
              OR (w.cursor_event_id < (SELECT last FROM event_seq WHERE id = 1)
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending')))
       ORDER BY w.id ASC LIMIT ?`,
      [t, ...exclude, t, limit],
    );
    return rows.map((row) => Number(row.id));
  }

  /** Leases that have not expired yet, with their holders (to find the ones a dead process left). */
  async heldLeases(now: Date): Promise<Array<{ webhookId: number; holder: string }>> {
    const rows = await this.reader.all<{ id: number | string; holder: string }>(
      'SELECT id, lease_holder AS holder FROM webhooks WHERE lease_holder IS NOT NULL AND lease_expires_at >= ?',
      [this.time(now)],
    );
    return rows.map((row) => ({ webhookId: Number(row.id), holder: row.holder }));
  }

  /**
   * Claims the webhooks among `ids` that are still free, for `holder` until `expiresAt`.
   * MariaDB: `SELECT … FOR UPDATE SKIP LOCKED` (rows another instance is claiming right now are
   * skipped, never waited for), then the UPDATE. SQLite: one conditional UPDATE per row (the
   * database has one writer, so the condition decides the race). Returns the ids now held.
   */
  async claimWebhooks(manager: EntityManager, ids: number[], holder: string, now: Date, expiresAt: Date): Promise<number[]> {
    if (ids.length === 0) {
      return [];
    }
    const free = '(lease_holder IS NULL OR lease_expires_at < ?)';
    if (this.mysql) {
      const rows = await manager.query<Array<{ id: number | string }>>(
        `SELECT id FROM webhooks WHERE id IN (${ids.map(() => '?').join(', ')}) AND active = 1 AND ${free} FOR UPDATE SKIP LOCKED`,
        [...ids, now],
      );
      const claimed = rows.map((row) => Number(row.id));
      if (claimed.length > 0) {
        await manager.query(`UPDATE webhooks SET lease_holder = ?, lease_expires_at = ? WHERE id IN (${claimed.map(() => '?').join(', ')})`, [
          holder,
          expiresAt,
          ...claimed,
        ]);
      }
      return claimed;
    }
    const claimed: number[] = [];
    for (const id of ids) {
      const changed = await executeCountingRows(
        manager,
        `UPDATE webhooks SET lease_holder = ?, lease_expires_at = ? WHERE id = ? AND active = 1 AND ${free}`,
        [holder, this.time(expiresAt), id, this.time(now)],
      );
      if (changed === 1) {
        claimed.push(id);
      }
    }
    return claimed;
  }

  /** Extends the lease; false when `holder` lost it (expired and taken by another instance). */
  async renewLease(manager: EntityManager, id: number, holder: string, expiresAt: Date): Promise<boolean> {
    return (await executeCountingRows(manager, 'UPDATE webhooks SET lease_expires_at = ? WHERE id = ? AND lease_holder = ?', [this.time(expiresAt), id, holder])) === 1;
  }

  async releaseLease(manager: EntityManager, id: number, holder: string): Promise<void> {
    await manager.query('UPDATE webhooks SET lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ?', [id, holder]);
  }

  // ---- deliveries ----

  /** The oldest pending delivery of the webhook: the head of its queue. */
  async headDelivery(manager: EntityManager, webhookId: number): Promise<DeliveryRecord | undefined> {
    const [row] = await manager.query<DeliveryRow[]>(
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

  /** Queues a delivery of `eventId` and moves the webhook's cursor to it, while `holder` holds the lease. */
  async enqueueDelivery(manager: EntityManager, webhookId: number, holder: string, delivery: { deliveryId: string; eventId: number; type: string; now: Date }): Promise<boolean> {
    const moved = await executeCountingRows(manager, 'UPDATE webhooks SET cursor_event_id = ? WHERE id = ? AND lease_holder = ? AND cursor_event_id < ?', [
      delivery.eventId,
      webhookId,
      holder,
      delivery.eventId,
    ]);
    if (moved !== 1) {
      return false;
    }
    const t = this.time(delivery.now);
    await manager.query(
      "INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)",
      [delivery.deliveryId, webhookId, delivery.eventId, delivery.type, t, t],
    );
    return true;
  }

  /** Moves the cursor past events the webhook does not subscribe to. */
  async advanceCursor(manager: EntityManager, webhookId: number, holder: string, to: number): Promise<void> {
    await manager.query('UPDATE webhooks SET cursor_event_id = ? WHERE id = ? AND lease_holder = ? AND cursor_event_id < ?', [to, webhookId, holder, to]);
  }

  /** A delivery outside the queue (test ping, redelivery) is logged like the others: a row, already complete. */
  async insertCompletedDelivery(
    manager: EntityManager,
    delivery: { deliveryId: string; webhookId: number; eventId: number | null; type: string; status: DeliveryStatus; now: Date },
  ): Promise<void> {
    const t = this.time(delivery.now);
    await manager.query(
      'INSERT INTO webhook_deliveries (delivery_id, webhook_id, event_id, type, status, attempts, next_attempt_at, created_at, completed_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)',
      [delivery.deliveryId, delivery.webhookId, delivery.eventId, delivery.type, delivery.status, t, t, t],
    );
  }

  /** The outcome of one attempt: logged, and the delivery moved on (delivered, failed, or retried at `nextAttemptAt`). */
  async recordAttempt(
    manager: EntityManager,
    attempt: AttemptRecord,
    outcome: { status: DeliveryStatus; nextAttemptAt?: Date; countsAsAttempt: boolean },
  ): Promise<void> {
    // Discord's 429 is not an attempt: it only postpones the delivery, and is not logged.
    if (outcome.countsAsAttempt) {
      await manager.query(
        'INSERT INTO webhook_attempts (webhook_id, delivery_id, event_id, attempt, status_code, error, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [attempt.webhookId, attempt.deliveryId, attempt.eventId, attempt.attempt, attempt.statusCode, attempt.error, attempt.durationMs, this.time(attempt.at)],
      );
    }
    const completed = outcome.status === 'pending' ? null : this.time(attempt.at);
    await manager.query(
      `UPDATE webhook_deliveries SET status = ?, attempts = attempts + ?, next_attempt_at = ?, completed_at = ? WHERE delivery_id = ?`,
      [outcome.status, outcome.countsAsAttempt ? 1 : 0, this.time(outcome.nextAttemptAt ?? attempt.at), completed, attempt.deliveryId],
    );
    if (outcome.countsAsAttempt) {
      await manager.query('UPDATE webhooks SET last_delivery_at = ?, failing = ? WHERE id = ?', [
        this.time(attempt.at),
        attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300 ? 0 : 1,
        attempt.webhookId,
      ]);
    }
  }

  /** Logs an attempt made outside the queue (test ping, redelivery). */
  async logAttempt(manager: EntityManager, attempt: AttemptRecord): Promise<void> {
    await manager.query(
      'INSERT INTO webhook_attempts (webhook_id, delivery_id, event_id, attempt, status_code, error, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [attempt.webhookId, attempt.deliveryId, attempt.eventId, attempt.attempt, attempt.statusCode, attempt.error, attempt.durationMs, this.time(attempt.at)],
    );
    const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
    await manager.query('UPDATE webhooks SET last_delivery_at = ?, failing = ? WHERE id = ?', [this.time(attempt.at), ok ? 0 : 1, attempt.webhookId]);
  }

  /** A redelivered delivery that succeeded is delivered; one that failed again stays as it was. */
  async markDelivered(manager: EntityManager, deliveryId: string, at: Date): Promise<void> {
    await manager.query("UPDATE webhook_deliveries SET status = 'delivered', completed_at = ? WHERE delivery_id = ?", [this.time(at), deliveryId]);
  }

  async lastAttemptNumber(manager: EntityManager, deliveryId: string): Promise<number> {
    const [row] = await manager.query<Array<{ attempt: number | string | null }>>('SELECT MAX(attempt) AS attempt FROM webhook_attempts WHERE delivery_id = ?', [deliveryId]);
    return Number(row?.attempt ?? 0);
  }

  /** The deliveries log: the latest 100 attempts, newest first. */
  async attempts(webhookId: number, limit = 100): Promise<AttemptView[]> {
    const rows = await this.reader.all<{
      deliveryId: string;
      eventId: number | string | null;
      attempt: number | string;
      statusCode: number | string | null;
      error: string | null;
      durationMs: number | string;
      at: Date | string;
    }>(
      'SELECT delivery_id AS deliveryId, event_id AS eventId, attempt, status_code AS statusCode, error, duration_ms AS durationMs, at FROM webhook_attempts WHERE webhook_id = ? ORDER BY id DESC LIMIT ?',
      [webhookId, limit],
    );
    return rows.map((row) => ({
      deliveryId: row.deliveryId,
      eventId: row.eventId === null ? null : Number(row.eventId),
      attempt: Number(row.attempt),
      status: row.statusCode === null ? null : Number(row.statusCode),
      error: row.error,
      durationMs: Number(row.durationMs),
      at: isoTime(row.at)!,
    }));
  }

  // ---- retention ----

  /** Deletes events, finished deliveries and attempts older than `cutoff`; pending deliveries stay. */
  async deleteOlderThan(manager: EntityManager, cutoff: Date): Promise<{ events: number; deliveries: number; attempts: number }> {
    const t = this.time(cutoff);
    const attempts = await executeCountingRows(manager, 'DELETE FROM webhook_attempts WHERE at < ?', [t]);
    const deliveries = await executeCountingRows(manager, "DELETE FROM webhook_deliveries WHERE created_at < ? AND status <> 'pending'", [t]);
    const events = await executeCountingRows(manager, 'DELETE FROM events WHERE at < ?', [t]);
    return { events, deliveries, attempts };
  }

  /** Who a player is, for Discord messages (mention by chat id when linked). */
  async playerNames(uuids: string[]): Promise<Map<string, { mcid: string | null; chatid: string | null }>> {
    const names = new Map<string, { mcid: string | null; chatid: string | null }>();
    if (uuids.length === 0) {
      return names;
    }
    const rows = await this.reader.all<{ uuid: string; mcid: string | null; chatid: string | null }>(
      `SELECT uuid, mcid, chatid FROM players WHERE uuid IN (${uuids.map(() => '?').join(', ')})`,
      uuids,
    );
    for (const row of rows) {
      names.set(row.uuid, { mcid: row.mcid ?? null, chatid: row.chatid ?? null });
    }
    return names;
  }
}
