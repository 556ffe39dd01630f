import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';
import { Player } from '../players/player.entity';
import type { Point } from './geometry';

export const REQUEST_TYPES = ['create', 'region', 'update'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export const REQUEST_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** The fields a request asks for, in the input's names; corners as numbers. */
export interface RequestedChanges {
  cityName?: string;
  cityNameKana?: string;
  summary?: string;
  origin?: string;
  /** Lower-cased; `""` in an update clears it. */
  regionName?: string;
  corners?: Point[];
  count?: number;
  reason?: string;
  remarks?: string;
}

/** The `changes` column: the requested fields as JSON text. */
export const changesColumn = {
  to: (value: RequestedChanges): string => JSON.stringify(value),
  from: (value: string): RequestedChanges => JSON.parse(value) as RequestedChanges,
};

@Entity('city_requests')
export class CityRequest {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'city_id', type: 'integer' })
  cityId: number;

  @Column({ type: 'varchar', length: 16 })
  type: RequestType;

  @Column({ type: 'varchar', length: 16 })
  status: RequestStatus;

  /** `<cityId>:<type>` while pending, NULL after the decision: one pending request per city and type. */
  @Column({ name: 'pending_key', type: 'varchar', length: 32, nullable: true })
  pendingKey: string | null;

  @Column({ type: 'text', transformer: changesColumn })
  changes: RequestedChanges;

  @Column({ name: 'requester_uuid', type: 'varchar', length: 36 })
  requesterUuid: string;

  @ManyToOne(() => Player, { nullable: false })
  @JoinColumn({ name: 'requester_uuid', referencedColumnName: 'uuid' })
  requester?: Player;

  @Column({ type: 'text', nullable: true })
  remarks: string | null;

  /** Bounding box of the requested corners (region requests), for the overlap prefilter. */
  @Column({ name: 'min_x', type: 'integer', nullable: true })
  minX: number | null;

  @Column({ name: 'max_x', type: 'integer', nullable: true })
  maxX: number | null;

  @Column({ name: 'min_z', type: 'integer', nullable: true })
  minZ: number | null;

  @Column({ name: 'max_z', type: 'integer', nullable: true })
  maxZ: number | null;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'decided_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  decidedAt: Date | null;

  @Column({ name: 'decided_by', type: 'varchar', length: 128, nullable: true })
  decidedBy: string | null;

  @Column({ name: 'reject_reason', type: 'text', nullable: true })
  rejectReason: string | null;
}

export function pendingKeyOf(cityId: number, type: RequestType): string {
  return `${cityId}:${type}`;
}
