import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isUniqueViolation } from '../database/database-errors';
import { UnitOfWork } from '../database/unit-of-work';
import { SyncLease } from './sync-lease.entity';

/**
 * A lease in the database that only one holder has at a time, across every process sharing the
 * database. Taking it is one conditional UPDATE (the database decides the race); it expires on
 * its own when its holder dies without releasing it.
 */
@Injectable()
export class SyncLeaseService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @InjectRepository(SyncLease) private readonly leases: Repository<SyncLease>,
  ) {}

  /** True when `holder` now has the lease for `ttlMs`. */
  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = new Date();
    const taken = await this.unitOfWork.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(SyncLease)
        .set({ holder, expiresAt: new Date(now.getTime() + ttlMs) })
        .where('name = :name', { name })
        .andWhere('(holder IS NULL OR expires_at IS NULL OR expires_at < :now)', { now })
        .execute();
      return result.affected === 1;
    });
    if (taken) {
      return true;
    }
    // The migration creates the row; a lease name added later is created by its first taker.
    try {
      await this.unitOfWork.transaction((manager) => manager.insert(SyncLease, { name, holder, expiresAt: new Date(now.getTime() + ttlMs) }));
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }

  /** Extends a lease still held by `holder`; false when it was lost (expired and taken by another). */
  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const result = await this.unitOfWork.transaction((manager) =>
      manager
        .createQueryBuilder()
        .update(SyncLease)
        .set({ expiresAt: new Date(Date.now() + ttlMs) })
        .where('name = :name AND holder = :holder', { name, holder })
        .execute(),
    );
    return result.affected === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.unitOfWork.transaction((manager) =>
      manager
        .createQueryBuilder()
        .update(SyncLease)
        .set({ holder: null, expiresAt: null })
        .where('name = :name AND holder = :holder', { name, holder })
        .execute(),
    );
  }

  /** True while someone holds an unexpired lease. */
  async isHeld(name: string): Promise<boolean> {
    const lease = await this.leases.findOneBy({ name });
    return Boolean(lease?.holder && lease.expiresAt && lease.expiresAt.getTime() > Date.now());
  }
}
