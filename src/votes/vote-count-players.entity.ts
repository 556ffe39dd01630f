import { Column, Entity, PrimaryColumn } from 'typeorm';

/** How many players have exactly `voteCount` votes (more than 0) on a site: the ranks read these. */
@Entity('vote_count_players')
export class VoteCountPlayers {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  site: string;

  @PrimaryColumn({ name: 'vote_count', type: 'integer' })
  voteCount: number;

  @Column({ type: 'integer' })
  players: number;
}
