import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A reported change of a player's login text; (origin, source id) is unique. */
@Entity('login_text_reports')
export class LoginTextReport {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  /** Null: the text was removed. */
  @Column({ name: 'login_text', type: 'varchar', length: 255, nullable: true })
  loginText: string | null;

  @Column({ name: 'reported_at', type: 'datetime', precision: 3, transformer: utcDate })
  reportedAt: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
