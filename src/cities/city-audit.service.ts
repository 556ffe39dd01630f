import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import { DataVersions } from '../database/data-versions';
import type { Transaction } from '../database/unit-of-work';
import type { AuditAction } from './city-audit.entity';
import { CityAuditRepository } from './city-audit.repository';

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
    private readonly entries: CityAuditRepository,
    private readonly versions: DataVersions,
  ) {}

  /**
   * Records a state change inside the transaction that makes it. Every city write passes here,
   * so this is also where cached city reads learn that they are out of date.
   */
  async record(tx: Transaction, record: AuditRecord): Promise<void> {
    await this.versions.bump(tx, 'cities');
    await this.entries.insert(tx, {
      cityId: record.cityId,
      requestId: record.requestId ?? null,
      actor: record.actor,
      action: record.action,
      before: record.before ?? null,
      after: record.after ?? null,
      at: new Date(),
    });
  }
}
