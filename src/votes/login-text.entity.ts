import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A player's current login text (shown before VIP in the join-message title). */
@Entity('login_texts')
export class LoginText {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ name: 'login_text', type: 'varchar', length: 255, nullable: true })
  loginText: string | null;

  /** `game-server` or `original` (imported): an import replaces only what an import set. */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  /** When the game server reported it; null for an imported text (any report wins over it). */
  @Column({ name: 'reported_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  reportedAt: Date | null;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
