import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** The mirrored ban-list data of one player, as of `syncedAt` (the last successful fetch). */
@Entity('banlist_players')
export class BanlistPlayer {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uuid: string;

  /** The upstream's name of the player; null for a clean record (upstream 404). */
  @Column({ name: 'upstream_name', type: 'varchar', length: 64, nullable: true })
  upstreamName: string | null;

  @Column({ type: 'double' })
  reputation: number;

  @Column({ name: 'synced_at', type: 'datetime', precision: 3, transformer: utcDate })
  syncedAt: Date;
}
