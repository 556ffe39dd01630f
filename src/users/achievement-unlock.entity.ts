import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A player unlocked an achievement; one row per (player, achievement), the first report wins. */
@Entity('achievement_unlocks')
export class AchievementUnlock {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ name: 'achievement_id', type: 'integer' })
  achievementId: number;

  @Column({ name: 'unlocked_at', type: 'datetime', precision: 3, transformer: utcDate })
  unlockedAt: Date;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;
}
