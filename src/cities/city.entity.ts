import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';
import { Player } from '../players/player.entity';
import type { Point } from './geometry';

/** `pending`: a create request awaits a decision; only `active` cities are visible to reads. */
export const CITY_STATES = ['pending', 'active', 'rejected', 'deleted'] as const;
export type CityState = (typeof CITY_STATES)[number];

/** The `corners` column: `[[x, z], …]` as JSON text. The one place that encodes and decodes it. */
export const cornersColumn = {
  to: (corners: Point[]): string => JSON.stringify(corners.map((corner) => [corner.x, corner.z])),
  from: (value: string): Point[] => (JSON.parse(value) as Array<[number, number]>).map(([x, z]) => ({ x, z })),
};

/** A city; the row exists from the create request on and is visible once approved (`active`). */
@Entity('cities')
export class City {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 16 })
  state: CityState;

  @Column({ name: 'owner_uuid', type: 'varchar', length: 36 })
  ownerUuid: string;

  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn({ name: 'owner_uuid', referencedColumnName: 'uuid' })
  owner?: Player;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  @Column({ name: 'name_kana', type: 'varchar', length: 64 })
  nameKana: string;

  /** Normalised name while pending or active, NULL once rejected or deleted (frees the name). */
  @Column({ name: 'name_key', type: 'varchar', length: 255, nullable: true })
  nameKey: string | null;

  @Column({ name: 'kana_key', type: 'varchar', length: 255, nullable: true })
  kanaKey: string | null;

  /** The game-server protection region id, trimmed and lower-cased. */
  @Column({ name: 'region_name', type: 'varchar', length: 32, nullable: true })
  regionName: string | null;

  /** `region_name` while pending or active, NULL once rejected or deleted (frees the id). */
  @Column({ name: 'region_key', type: 'varchar', length: 32, nullable: true })
  regionKey: string | null;

  @Column({ type: 'text', nullable: true })
  summary: string | null;

  @Column({ type: 'text', nullable: true })
  origin: string | null;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ type: 'text', nullable: true })
  remarks: string | null;

  @Column({ type: 'text', transformer: cornersColumn })
  corners: Point[];

  @Column({ name: 'block_count', type: 'integer' })
  blockCount: number;

  @Column({ name: 'min_x', type: 'integer' })
  minX: number;

  @Column({ name: 'max_x', type: 'integer' })
  maxX: number;

  @Column({ name: 'min_z', type: 'integer' })
  minZ: number;

  @Column({ name: 'max_z', type: 'integer' })
  maxZ: number;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
