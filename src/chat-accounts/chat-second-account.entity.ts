import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A second chat account registered to a person's main chat account (history: the newest counts). */
@Entity('chat_second_accounts')
@Index('UQ_chat_second_accounts_source', ['origin', 'sourceId'], { unique: true })
@Index('IDX_chat_second_accounts_main', ['mainChatid', 'registeredAt', 'id'])
export class ChatSecondAccount {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Who sent it: `chat-bot`, or `original` for the import. */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  /** The sender's own id of the record (idempotency). */
  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ type: 'varchar', length: 20 })
  chatid: string;

  @Column({ name: 'main_chatid', type: 'varchar', length: 20 })
  mainChatid: string;

  @Column({ name: 'registered_at', type: 'datetime', precision: 3, transformer: utcDate })
  registeredAt: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
