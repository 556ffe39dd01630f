import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/database-errors';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';

/** A lease as stored: free when `holder` is null or `expiresAt` has passed. */
export interface LeaseRecord {
  holder: string | null;
  expiresAt: Date | null;
}

const LEASE_SQL = 'SELECT holder, expires_at AS expiresAt FROM sync_leases WHERE name = ?';

/** Database leases (one holder at a time across processes): the one writer of `sync_leases` (no cached read depends on it). */
@Injectable()
export class SyncLeasesRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Takes a free or expired lease in one conditional UPDATE (the database decides the race). */
  async takeLease(tx: Transaction, name: string, holder: string, expiresAt: Date, now: Date): Promise<boolean> {
    const { affectedRows } = await tx.run('UPDATE sync_leases SET holder = ?, expires_at = ? WHERE name = ? AND (holder IS NULL OR expires_at IS NULL OR expires_at < ?)', [
      holder,
      tx.time(expiresAt),
      name,
      tx.time(now),
    ]);
    return affectedRows === 1;
  }

  /** Creates a lease row already held; false when the row exists. */
  async createLease(tx: Transaction, name: string, holder: string, expiresAt: Date): Promise<boolean> {
    try {
      await tx.run('INSERT INTO sync_leases (name, holder, expires_at) VALUES (?, ?, ?)', [name, holder, tx.time(expiresAt)]);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }

  /** Sets the expiry of a lease still held by `holder` (null `expiresAt` with null `to` releases it). */
  async updateHeldLease(tx: Transaction, name: string, holder: string, to: { holder: string | null; expiresAt: Date | null }): Promise<boolean> {
    const { affectedRows } = await tx.run('UPDATE sync_leases SET holder = ?, expires_at = ? WHERE name = ? AND holder = ?', [
      to.holder,
      to.expiresAt === null ? null : tx.time(to.expiresAt),
      name,
      holder,
    ]);
    return affectedRows === 1;
  }

  async getLease(name: string): Promise<LeaseRecord | null> {
    const row = await this.reader.one<{ holder: string | null; expiresAt: DbTime | null }>(LEASE_SQL, [name]);
    return row ? { holder: row.holder, expiresAt: row.expiresAt === null ? null : dateOf(row.expiresAt) } : null;
  }
}
