import { Injectable } from '@nestjs/common';
import type { Caller } from '../auth/caller';
import type { Transaction } from '../database/transaction';
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
  constructor(private readonly entries: CityAuditRepository) {}

  /** Records a state change inside the transaction that makes it (the city's repositories bump `cities`). */
  async record(tx: Transaction, record: AuditRecord): Promise<void> {
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
