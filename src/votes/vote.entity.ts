import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** One vote on a vote site, as its sender reported it; (origin, source id) is unique. */
@Entity('votes')
export class Vote {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  /** Who reported it: `game-server`. */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  /** The sender's own id of the vote. */
  @Column({ name: 'source_id', type: 'varchar', length: 64 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'varchar', length: 64 })
  site: string;

  @Column({ name: 'voted_at', type: 'datetime', precision: 3, transformer: utcDate })
  votedAt: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
