import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { EventType, EventView } from './event.types';
import type { Transaction } from '../database/transaction';

interface EventRow {
  id: number;
  type: EventType;
  data: string;
  at: DbTime;
}

const EVENT_COLUMNS = 'id, type, data, at';

function toEvent(row: EventRow): EventView {
  return { id: row.id, type: row.type, at: isoTime(row.at)!, data: JSON.parse(row.data) as Record<string, unknown> };
}

/**
 * The outbox: `events` and its id counter `event_seq`. Writes take the caller's transaction
 * (`tx`); reads that must see only committed rows go through SqlReader (on SQLite, TypeORM's one
 * shared connection would show another request's open transaction).
 */
@Injectable()
export class EventsRepository {
  constructor(private readonly reader: SqlReader) {}

  /**
   * Appends an event in the caller's transaction. The id comes from the one `event_seq` row,
   * locked by the UPDATE until the transaction ends: ids are handed out in commit order.
   */
  async append(tx: Transaction, type: EventType, data: Record<string, unknown>, at: Date): Promise<number> {
    const id = await this.nextEventId(tx);
    await tx.run('INSERT INTO events (id, type, data, at) VALUES (?, ?, ?, ?)', [id, type, JSON.stringify(data), tx.time(at)]);
    return id;
  }

  /** Takes the next event id, one round trip: LAST_INSERT_ID(expr) on MySQL, RETURNING on SQLite. */
  private async nextEventId(tx: Transaction): Promise<number> {
    if (tx.isMysql) {
      const { insertId } = await tx.run('UPDATE event_seq SET last = LAST_INSERT_ID(last + 1) WHERE id = 1');
      return insertId!;
    }
    const row = await tx.one<{ last: number }>('UPDATE event_seq SET last = last + 1 WHERE id = 1 RETURNING last');
    return row!.last;
  }

  /** Committed events with an id above `after`, oldest first. */
  async eventsAfter(after: number, limit: number): Promise<EventView[]> {
    const rows = await this.reader.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [after, limit]);
    return rows.map(toEvent);
  }

  /** The id of the latest committed event (0 when none). */
  async lastEventId(): Promise<number> {
    const row = await this.reader.one<{ last: number }>('SELECT last FROM event_seq WHERE id = 1');
    return row?.last ?? 0;
  }

  /** The id of the latest event as the caller's transaction sees it. */
  async lastEventIdIn(tx: Transaction): Promise<number> {
    const row = await tx.one<{ last: number }>('SELECT last FROM event_seq WHERE id = 1');
    return row?.last ?? 0;
  }

  /** Events above `after` inside the caller's transaction (the worker's view while it holds the lease). */
  async eventsAfterIn(tx: Transaction, after: number, limit: number): Promise<EventView[]> {
    const rows = await tx.all<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id > ? ORDER BY id ASC LIMIT ?`, [after, limit]);
    return rows.map(toEvent);
  }

  async eventById(tx: Transaction, id: number): Promise<EventView | undefined> {
    const row = await tx.one<EventRow>(`SELECT ${EVENT_COLUMNS} FROM events WHERE id = ?`, [id]);
    return row ? toEvent(row) : undefined;
  }

  /** Deletes events older than `cutoff`; returns how many. */
  async deleteOlderThan(tx: Transaction, cutoff: Date): Promise<number> {
    return (await tx.run('DELETE FROM events WHERE at < ?', [tx.time(cutoff)])).affectedRows;
  }
}
