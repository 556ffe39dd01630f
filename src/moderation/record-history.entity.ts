import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** What a history entry records. */
export const HISTORY_ACTIONS = ['lifted', 'note', 'evidence-added', 'evidence-removed'] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

/** One change an operator made to a record, written in the transaction of the change. */
@Entity('record_history')
export class RecordHistoryEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'record_kind', type: 'varchar', length: 8 })
  recordKind: string;

  @Column({ name: 'record_id', type: 'varchar', length: 40 })
  recordId: string;

  @Column({ type: 'datetime', precision: 3, transformer: utcDate })
  at: Date;

  /** `apikey:<key name>` or `club:<game id>` (the uuid when the admin has none). */
  @Column({ type: 'varchar', length: 100 })
  actor: string;

  @Column({ type: 'varchar', length: 20 })
  action: HistoryAction;

  /** The lift's reason, the new note (null when cleared), the evidence file's name. */
  @Column({ type: 'text', nullable: true })
  detail: string | null;
}
