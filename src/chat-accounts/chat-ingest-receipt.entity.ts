import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/**
 * The sender's ids of the reports that change state rather than add a row (chat account profiles,
 * profile links, imported chat links and links): a repeat finds its receipt and changes nothing.
 */
@Entity('chat_ingest_receipts')
@Index('UQ_chat_ingest_receipts_source', ['origin', 'kind', 'sourceId'], { unique: true })
export class ChatIngestReceipt {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ type: 'varchar', length: 32 })
  kind: string;

  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'received_at', type: 'datetime', precision: 3, transformer: utcDate })
  receivedAt: Date;
}
