import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

@Entity('club_tokens')
export class ClubToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'account_id', type: 'integer' })
  accountId: number;

  /** sha256 of the token; the token itself is only ever in the client's hands. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, select: false })
  tokenHash: string;

  @Column({ name: 'issued_at', type: 'datetime', precision: 3, transformer: utcDate })
  issuedAt: Date;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3, transformer: utcDate })
  expiresAt: Date;

  @Column({ name: 'logged_out_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  loggedOutAt: Date | null;
}
