import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A single-use key a player gets in game (`/getuserkey`); stored only as its hash. */
@Entity('user_keys')
export class UserKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ name: 'key_hash', type: 'varchar', length: 64, select: false })
  keyHash: string;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, transformer: utcDate })
  expiresAt: Date;

  @Column({ name: 'spent_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  spentAt: Date | null;
}
