import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A player's votes on one site: the imported total plus the votes recorded here (`voteCount` is their sum). */
@Entity('vote_totals')
export class VoteTotal {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  site: string;

  @Column({ name: 'imported_count', type: 'integer', default: 0 })
  importedCount: number;

  @Column({ name: 'recorded_count', type: 'integer', default: 0 })
  recordedCount: number;

  @Column({ name: 'vote_count', type: 'integer' })
  voteCount: number;

  @Column({ name: 'last_voted_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  lastVotedAt: Date | null;
}
