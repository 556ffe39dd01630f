import { Injectable } from '@nestjs/common';
import type { QueryDeepPartialEntity } from 'typeorm';
import { SqlReader } from '../database/sql-reader';
import { isoTime } from '../database/transformers';
import type { Transaction } from '../database/unit-of-work';
import { AuditAction, CityAuditEntry, snapshotColumn } from './city-audit.entity';
import type { HistoryEntryView } from './city.view';
import { Page, pageOf, PageQuery } from './page';

export type NewAuditEntry = Omit<CityAuditEntry, 'id'>;

interface AuditRow {
  id: number | string;
  action: AuditAction;
  actor: string;
  requestId: number | string | null;
  beforeState: string | null;
  afterState: string | null;
  at: Date | string;
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
    // The snapshots are plain JSON objects; TypeORM's deep-partial type cannot tell them from relations.
    await tx.insert(CityAuditEntry, entry as QueryDeepPartialEntity<CityAuditEntry>);
  }
}

/** The one mapping of a trail row. */
function toHistoryEntry(row: AuditRow): HistoryEntryView {
  return {
    id: Number(row.id),
    action: row.action,
    actor: row.actor,
    requestId: row.requestId === null ? null : Number(row.requestId),
    before: snapshotColumn.from(row.beforeState),
    after: snapshotColumn.from(row.afterState),
    at: isoTime(row.at)!,
  };
}
