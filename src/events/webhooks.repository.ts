import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';

export type WebhookFormat = 'json' | 'discord';

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

interface WebhookRow {
  id: number;
  url: string;
  events: string;
  format: WebhookFormat;
  secret: string;
  active: number | boolean;
  failing: number | boolean;
  createdAt: DbTime;
  lastDeliveryAt: DbTime | null;
  cursorEventId: number;
}

const WEBHOOK_COLUMNS =
  'id, url, events, format, secret, active, failing, created_at AS createdAt, last_delivery_at AS lastDeliveryAt, cursor_event_id AS cursorEventId';

function truthy(value: number | boolean): boolean {
  return value === true || value === 1;
}

function toWebhook(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    format: row.format,
    secret: row.secret,
    active: truthy(row.active),
    failing: truthy(row.failing),
    createdAt: isoTime(row.createdAt)!,
    lastDeliveryAt: isoTime(row.lastDeliveryAt),
    cursorEventId: row.cursorEventId,
  };
}

/**
 * The `webhooks` table: the subscriptions, their cursor in the outbox and the delivery lease each
 * row carries. Writes take the caller's transaction (`tx`); reads outside one go through SqlReader
 * so they see only committed rows.
 */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Inserts a webhook whose cursor starts at `cursorEventId`; returns its id. */
  async insert(
    tx: Transaction,
    input: { url: string; events: string[]; format: WebhookFormat; secret: string; createdAt: Date; cursorEventId: number },
  ): Promise<number> {
    const { insertId } = await tx.run(
      'INSERT INTO webhooks (url, events, format, secret, active, failing, created_at, cursor_event_id) VALUES (?, ?, ?, ?, 1, 0, ?, ?)',
      [input.url, JSON.stringify(input.events), input.format, input.secret, tx.time(input.createdAt), input.cursorEventId],
    );
    return insertId!;
  }

  async webhooks(): Promise<WebhookRecord[]> {
    return (await this.reader.all<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks ORDER BY id ASC`)).map(toWebhook);
  }

  async webhook(id: number): Promise<WebhookRecord | undefined> {
    const row = await this.reader.one<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
    return row ? toWebhook(row) : undefined;
  }

  async webhookIn(tx: Transaction, id: number): Promise<WebhookRecord | undefined> {
    const row = await tx.one<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?`, [id]);
    return row ? toWebhook(row) : undefined;
  }

  /** Changes `active`, `events` and/or `url`; re-activating or changing the URL clears `failing`. */
  async update(tx: Transaction, id: number, changes: { active?: boolean; events?: string[]; url?: string }): Promise<void> {
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
      await tx.run(`UPDATE webhooks SET ${sets.join(', ')} WHERE id = ?`, [...parameters, id]);
    }
  }

  /** Deletes the webhook row (its deliveries first: WebhookDeliveriesRepository.deleteForWebhook); false when there was none. */
  async delete(tx: Transaction, id: number): Promise<boolean> {
    return (await tx.run('DELETE FROM webhooks WHERE id = ?', [id])).affectedRows === 1;
  }

  /** The outcome of the latest attempt, shown as `lastDeliveryAt` and `failing`. */
  async recordDeliveryOutcome(tx: Transaction, id: number, at: Date, ok: boolean): Promise<void> {
    await tx.run('UPDATE webhooks SET last_delivery_at = ?, failing = ? WHERE id = ?', [tx.time(at), ok ? 0 : 1, id]);
  }

  // ---- the cursor and the delivery lease ----

  /**
   * Active webhooks, free to claim, with something to do now: a due head of their queue, or (with
   * an empty queue) events past their cursor. A webhook waiting to retry its head is left alone,
   * and so are `exclude` (the ones this instance is working on or holding back). A read join over
   * the deliveries and `event_seq`: the worker's pass runs it every tick, so it stays one query.
   */
  async webhooksWithWork(now: Date, limit: number, exclude: number[] = []): Promise<number[]> {
    const t = this.time(now);
    const excluded = exclude.length > 0 ? `AND w.id NOT IN (${exclude.map(() => '?').join(', ')})` : '';
    const rows = await this.reader.all<{ id: number }>(
      `SELECT w.id FROM webhooks w WHERE w.active = 1 AND (w.lease_holder IS NULL OR w.lease_expires_at < ?) ${excluded}
         AND ((SELECT d.next_attempt_at FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending' ORDER BY d.id ASC LIMIT 1) <= ?
              OR (w.cursor_event_id < (SELECT last FROM event_seq WHERE id = 1)
                  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending')))
       ORDER BY w.id ASC LIMIT ?`,
      [t, ...exclude, t, limit],
    );
    return rows.map((row) => row.id);
  }

  /** Leases that have not expired yet, with their holders (to find the ones a dead process left). */
  async heldLeases(now: Date): Promise<Array<{ webhookId: number; holder: string }>> {
    const rows = await this.reader.all<{ id: number; holder: string }>(
      'SELECT id, lease_holder AS holder FROM webhooks WHERE lease_holder IS NOT NULL AND lease_expires_at >= ?',
      [this.time(now)],
    );
    return rows.map((row) => ({ webhookId: row.id, holder: row.holder }));
  }

  /**
   * Claims the webhooks among `ids` that are still free, for `holder` until `expiresAt`.
   * MariaDB: `SELECT … FOR UPDATE SKIP LOCKED` (rows another instance is claiming right now are
   * skipped, never waited for), then the UPDATE. SQLite: one conditional UPDATE per row (the
   * database has one writer, so the condition decides the race). Returns the ids now held.
   */
  async claim(tx: Transaction, ids: number[], holder: string, now: Date, expiresAt: Date): Promise<number[]> {
    if (ids.length === 0) {
      return [];
    }
    const free = '(lease_holder IS NULL OR lease_expires_at < ?)';
    if (tx.isMysql) {
      const rows = await tx.all<{ id: number }>(
        `SELECT id FROM webhooks WHERE id IN (${ids.map(() => '?').join(', ')}) AND active = 1 AND ${free} FOR UPDATE SKIP LOCKED`,
        [...ids, now],
      );
      const claimed = rows.map((row) => row.id);
      if (claimed.length > 0) {
        await tx.run(`UPDATE webhooks SET lease_holder = ?, lease_expires_at = ? WHERE id IN (${claimed.map(() => '?').join(', ')})`, [
          holder,
          expiresAt,
          ...claimed,
        ]);
      }
      return claimed;
    }
    const claimed: number[] = [];
    for (const id of ids) {
      const { affectedRows } = await tx.run(
        `UPDATE webhooks SET lease_holder = ?, lease_expires_at = ? WHERE id = ? AND active = 1 AND ${free}`,
        [holder, this.time(expiresAt), id, this.time(now)],
      );
      if (affectedRows === 1) {
        claimed.push(id);
      }
    }
    return claimed;
  }

  /** Extends the lease; false when `holder` lost it (expired and taken by another instance). */
  async renewLease(tx: Transaction, id: number, holder: string, expiresAt: Date): Promise<boolean> {
    return (await tx.run('UPDATE webhooks SET lease_expires_at = ? WHERE id = ? AND lease_holder = ?', [this.time(expiresAt), id, holder])).affectedRows === 1;
  }

  async releaseLease(tx: Transaction, id: number, holder: string): Promise<void> {
    await tx.run('UPDATE webhooks SET lease_holder = NULL, lease_expires_at = NULL WHERE id = ? AND lease_holder = ?', [id, holder]);
  }

  /**
   * Moves the webhook's cursor forward to event `to` while `holder` holds the lease; false when the
   * lease was lost or the cursor is already there (the caller then queues nothing).
   */
  async advanceCursor(tx: Transaction, id: number, holder: string, to: number): Promise<boolean> {
    return (await tx.run('UPDATE webhooks SET cursor_event_id = ? WHERE id = ? AND lease_holder = ? AND cursor_event_id < ?', [to, id, holder, to])).affectedRows === 1;
  }

  /** A DATETIME(3) parameter as each driver stores it (text on SQLite, a Date for mysql2 in UTC). */
  private time(date: Date): Date | string {
    return this.reader.time(date);
  }
}
