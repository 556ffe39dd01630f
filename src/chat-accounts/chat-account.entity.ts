import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A chat account as the chat bot last reported it (or as the original database named it). */
@Entity('chat_accounts')
export class ChatAccount {
  @PrimaryColumn({ type: 'varchar', length: 20 })
  chatid: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** `"0"` when the account has none. */
  @Column({ type: 'varchar', length: 4 })
  discriminator: string;

  /** Null until the chat bot reports one: the platform's default avatar is served then. */
  @Column({ name: 'avatar_url', type: 'varchar', length: 512, nullable: true })
  avatarUrl: string | null;

  /** The time of the report this row holds; null for a row only the import wrote (older than any report). */
  @Column({ name: 'reported_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  reportedAt: Date | null;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
