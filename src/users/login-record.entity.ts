import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** One login of a player as the game server reported it; (player, time) is unique. */
@Entity('login_records')
export class LoginRecord {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'varchar', length: 16 })
  mcid: string;

  @Column({ name: 'logged_in_at', type: 'datetime', precision: 3, transformer: utcDate })
  loggedInAt: Date;

  @Column({ type: 'varchar', length: 64, nullable: true })
  permission: string | null;
}
