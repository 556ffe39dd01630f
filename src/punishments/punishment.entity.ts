import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/**
 * A punishment of a player: jail, chat jail (mute), area ban or the game's own ban, in force
 * until lifted. Unique by who reported it (`origin`), its kind and the reporter's own id.
 */
@Entity('punishments')
export class Punishment {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 8 })
  kind: string;

  /** `game-server`, or `original` for the import (whose source id is `table:id`). */
  @Column({ type: 'varchar', length: 16 })
  origin: string;

  @Column({ name: 'source_id', type: 'varchar', length: 80 })
  sourceId: string;

  @Column({ name: 'player_uuid', type: 'varchar', length: 36 })
  playerUuid: string;

  /** The player's game id when punished. */
  @Column({ type: 'varchar', length: 64 })
  mcid: string;

  @Column({ type: 'text' })
  reason: string;

  /** A jailed player's last words. */
  @Column({ type: 'text', nullable: true })
  testment: string | null;

  @Column({ name: 'issued_by', type: 'varchar', length: 64 })
  issuedBy: string;

  @Column({ name: 'issued_at', type: 'datetime', precision: 3, transformer: utcDate })
  issuedAt: Date;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  @Column({ name: 'lifted_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  liftedAt: Date | null;

  /** Who lifted it from the moderation API (`apikey:<name>`, `club:<game id>`); null for the game server's lifts and imported rows. */
  @Column({ name: 'lifted_by', type: 'varchar', length: 100, nullable: true })
  liftedBy: string | null;

  /** The reason an operator gave for the lift, if any. */
  @Column({ name: 'lift_reason', type: 'text', nullable: true })
  liftReason: string | null;

  /** When the game server reported a lift an operator had made (its confirmation); null otherwise. */
  @Column({ name: 'lift_confirmed_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  liftConfirmedAt: Date | null;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
