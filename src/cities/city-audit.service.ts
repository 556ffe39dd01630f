import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import type { Caller } from '../auth/auth.decorators';
import { DataVersions } from '../database/data-versions';
import { AuditAction, CityAuditEntry } from './city-audit.entity';

/** Who did something, as the audit trail spells it. */
export type Actor = string;

export function actorOf(caller: Caller | undefined): Actor {
  if (caller?.kind === 'apikey') {
    return `apikey:${caller.key.name}`;
  }
  if (caller?.kind === 'club') {
    return `club:${caller.session.playerUuid}`;
  }
  return 'unknown';
}

export interface AuditRecord {
  cityId: number;
  requestId?: number | null;
  actor: Actor;
  action: AuditAction;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

@Injectable()
export class CityAuditService {
  constructor(
    @InjectRepository(CityAuditEntry) private readonly entries: Repository<CityAuditEntry>,
    private readonly versions: DataVersions,
  ) {}

  /**
   * Records a state change inside the transaction that makes it. Every city write passes here,
   * so this is also where cached city reads learn that they are out of date.
   */
  async record(manager: EntityManager, record: AuditRecord): Promise<void> {
    await this.versions.bump(manager, 'cities');
    const entry = manager.create(CityAuditEntry, {
      cityId: record.cityId,
      requestId: record.requestId ?? null,
      actor: record.actor,
      action: record.action,
      before: record.before ?? null,
      after: record.after ?? null,
      at: new Date(),
    });
    await manager.save(entry);
  }

  history(cityId: number): Promise<CityAuditEntry[]> {
    return this.entries.find({ where: { cityId }, order: { id: 'ASC' } });
  }
}
