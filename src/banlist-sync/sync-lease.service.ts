import { Injectable } from '@nestjs/common';
import { isDeadLocalHolder } from '../common/lease-holder';
import { UnitOfWork } from '../database/unit-of-work';
import { SyncLeasesRepository } from './sync-leases.repository';

/**
 * A lease in the database that only one holder has at a time, across every process sharing the
 * database. Taking it is one conditional UPDATE (the database decides the race); it expires on
 * its own when its holder dies without releasing it.
 */
@Injectable()
export class SyncLeaseService {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly leases: SyncLeasesRepository,
  ) {}

  /**
   * True when `holder` now has the lease for `ttlMs`: a free or expired one, or one whose holder
   * was a process on this host that has died (a crash mid-run), so a restart need not wait for
   * the expiry (docs/reliability.md). A live holder, here or on another host, keeps it.
   */
  async acquire(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + ttlMs);
    if (await this.unitOfWork.transaction((tx) => this.leases.takeLease(tx, name, holder, expiresAt, now))) {
      return true;
    }
    const current = await this.leases.getLease(name);
    if (current?.holder && isDeadLocalHolder(current.holder)) {
      // Conditional on the dead holder: of two restarts racing for it, one wins.
      const dead = current.holder;
      return this.unitOfWork.transaction((tx) => this.leases.updateHeldLease(tx, name, dead, { holder, expiresAt }));
    }
    // The migration creates the row; a lease name added later is created by its first taker.
    return this.unitOfWork.transaction((tx) => this.leases.createLease(tx, name, holder, expiresAt));
  }

  /** Extends a lease still held by `holder`; false when it was lost (expired and taken by another). */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return this.unitOfWork.transaction((tx) => this.leases.updateHeldLease(tx, name, holder, { holder, expiresAt: new Date(Date.now() + ttlMs) }));
  }

  async release(name: string, holder: string): Promise<void> {
    await this.unitOfWork.transaction((tx) => this.leases.updateHeldLease(tx, name, holder, { holder: null, expiresAt: null }));
  }

  /** True while someone holds an unexpired lease. */
  async isHeld(name: string): Promise<boolean> {
    const lease = await this.leases.getLease(name);
    return Boolean(lease?.holder && lease.expiresAt && lease.expiresAt.getTime() > Date.now());
  }
}
