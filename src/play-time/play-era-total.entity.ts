import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A player's play time in one era: the imported total plus the sessions recorded here. */
@Entity('play_era_totals')
export class PlayEraTotal {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @PrimaryColumn({ type: 'varchar', length: 32 })
  era: string;

  @Column({ name: 'imported_seconds', type: 'bigint', default: 0 })
  importedSeconds: number;

  @Column({ name: 'recorded_seconds', type: 'bigint', default: 0 })
  recordedSeconds: number;
}
