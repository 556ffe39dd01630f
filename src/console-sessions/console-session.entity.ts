import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A signed-in console (docs/console-and-maps.md, Signing in to the console). */
@Entity('console_sessions')
export class ConsoleSession {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** sha256 of the cookie; the cookie itself is only ever in the browser's cookie jar. */
  @Column({ name: 'session_hash', type: 'varchar', length: 64, select: false })
  sessionHash: string;

  /** The operator API key the session stands for (null for a club admin's session). */
  @Column({ name: 'api_key_id', type: 'integer', nullable: true })
  apiKeyId: number | null;

  /** The club admin's token the session stands for (null for an operator's session). */
  @Column({ name: 'club_token_id', type: 'integer', nullable: true })
  clubTokenId: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'last_seen_at', type: 'datetime', precision: 3, transformer: utcDate })
  lastSeenAt: Date;

  /** The absolute end: sign-in plus CONSOLE_SESSION_MAX_SECONDS. */
  @Column({ name: 'expires_at', type: 'datetime', precision: 3, transformer: utcDate })
  expiresAt: Date;
}
