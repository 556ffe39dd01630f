import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

export const CLUB_GROUPS = ['default', 'admin'] as const;
export type ClubGroup = (typeof CLUB_GROUPS)[number];

@Entity('club_accounts')
export class ClubAccount {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  /** argon2id; never selected unless asked for. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255, select: false })
  passwordHash: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  nickname: string | null;

  @Column({ type: 'varchar', length: 16, default: 'default' })
  clubgroup: ClubGroup;

  /** The only token of this account that is still valid; issuing a new one supersedes the rest. */
  @Column({ name: 'current_token_id', type: 'integer', nullable: true })
  currentTokenId: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
