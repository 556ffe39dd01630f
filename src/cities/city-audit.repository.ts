import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { type DbTime, isoTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';
import { AuditAction, CityAuditEntry, snapshotColumn } from './city-audit.entity';
import type { HistoryEntryView } from './city.view';
import { Page, pageOf, PageQuery } from './page';

export type NewAuditEntry = Omit<CityAuditEntry, 'id'>;

interface AuditRow {
  id: number;
  action: AuditAction;
  actor: string;
  requestId: number | null;
  beforeState: string | null;
  afterState: string | null;
  at: DbTime;
}

const SQL = {
  byCity:
    'SELECT entry.id, entry.action, entry.actor, entry.request_id AS requestId, entry.before_state AS beforeState, ' +
    'entry.after_state AS afterState, entry.at FROM city_audit entry WHERE entry.city_id = ? AND entry.id > ? ORDER BY entry.id ASC LIMIT ?',
};

/** Every query of the `city_audit` table (the trail of state changes of cities and their requests). */
@Injectable()
export class CityAuditRepository {
  constructor(private readonly reader: SqlReader) {}

  /** A page of one city's trail, oldest first. */
  async getByCity(cityId: number, page: PageQuery): Promise<Page<HistoryEntryView>> {
    const rows = await this.reader.all<AuditRow>(SQL.byCity, [cityId, page.after, page.limit + 1]);
    return pageOf(rows.map(toHistoryEntry), page.limit);
  }

  async insert(tx: Transaction, entry: NewAuditEntry): Promise<void> {
    await tx.run('INSERT INTO city_audit (city_id, request_id, actor, action, before_state, after_state, at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      entry.cityId,
      entry.requestId,
      entry.actor,
      entry.action,
      snapshotColumn.to(entry.before),
      snapshotColumn.to(entry.after),
      tx.time(entry.at),
    ]);
  }
}

/** The one mapping of a trail row. */
function toHistoryEntry(row: AuditRow): HistoryEntryView {
  return {
    id: row.id,
    action: row.action,
    actor: row.actor,
    requestId: row.requestId,
    before: snapshotColumn.from(row.beforeState),
    after: snapshotColumn.from(row.afterState),
    at: isoTime(row.at)!,
  };
}
