import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A player's away time in total, kept as reports arrive. */
@Entity('away_totals')
export class AwayTotal {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ type: 'bigint', default: 0 })
  seconds: number;
}
