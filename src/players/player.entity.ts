import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/**
 * A player of the game server. A row can exist before the first login (a user key was issued);
 * the player exists for lookups only once `firstLogin` is set.
 */
@Entity('players')
export class Player {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  uuid: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  mcid: string | null;

  /** Lower-cased game id for case-insensitive lookups. */
  @Column({ name: 'mcid_key', type: 'varchar', length: 16, nullable: true })
  mcidKey: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  chatid: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  permission: string | null;

  @Column({ name: 'first_login', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  firstLogin: Date | null;

  @Column({ name: 'last_login', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  lastLogin: Date | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
