import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Seconds a player played on a day (YYYY-MM-DD in the community's zone), at most 86400. */
@Entity('play_days')
export class PlayDay {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @PrimaryColumn({ type: 'varchar', length: 10 })
  day: string;

  @Column({ type: 'integer' })
  seconds: number;
}
