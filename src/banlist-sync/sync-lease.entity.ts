import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A named lease: free when `holder` is null or `expiresAt` has passed. */
@Entity('sync_leases')
export class SyncLease {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  name: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  holder: string | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  expiresAt: Date | null;
}
