import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** What an audit entry records: a request's life (filed, forced, approved, rejected, withdrawn) or a deletion. */
export const AUDIT_ACTIONS = [
  'create_requested',
  'create_forced',
  'create_approved',
  'create_rejected',
  'create_withdrawn',
  'region_requested',
  'region_approved',
  'region_rejected',
  'region_withdrawn',
  'region_forced',
  'update_requested',
  'update_approved',
  'update_rejected',
  'update_withdrawn',
  'update_forced',
  'deleted',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The `before_state` / `after_state` columns: a JSON object or NULL. */
export const snapshotColumn = {
  to: (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value)),
  from: (value: string | null): Record<string, unknown> | null => (value === null ? null : (JSON.parse(value) as Record<string, unknown>)),
};

/** One state change of a city or one of its requests: who, what, when, before and after. */
@Entity('city_audit')
export class CityAuditEntry {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'city_id', type: 'integer' })
  cityId: number;

  @Column({ name: 'request_id', type: 'integer', nullable: true })
  requestId: number | null;

  /** `player:<uuid>`, `club:<uuid>` or `apikey:<name>`. */
  @Column({ type: 'varchar', length: 128 })
  actor: string;

  @Column({ type: 'varchar', length: 32 })
  action: AuditAction;

  @Column({ name: 'before_state', type: 'text', nullable: true, transformer: snapshotColumn })
  before: Record<string, unknown> | null;

  @Column({ name: 'after_state', type: 'text', nullable: true, transformer: snapshotColumn })
  after: Record<string, unknown> | null;

  @Column({ type: 'datetime', precision: 3, transformer: utcDate })
  at: Date;
}
