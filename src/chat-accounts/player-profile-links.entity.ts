import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** A player's profile links, set by the player (the account page) or by the chat bot. */
@Entity('player_profile_links')
export class PlayerProfileLinks {
  @PrimaryColumn({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  @Column({ name: 'twitter_id', type: 'varchar', length: 64, nullable: true })
  twitterId: string | null;

  @Column({ name: 'github_id', type: 'varchar', length: 39, nullable: true })
  githubId: string | null;

  @Column({ name: 'home_url', type: 'varchar', length: 512, nullable: true })
  homeUrl: string | null;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
