import { Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { MCID_PATTERN } from '../common/identifiers';
import type { Transaction } from '../database/transaction';
import { UnitOfWork } from '../database/unit-of-work';
import type { EventType, PunishmentEventData } from '../events/event.types';
import { EventsService } from '../events/events.service';
import { PlayersService } from '../players/players.service';
import type { PunishmentKind } from './punishment-kinds';
import { type NewPunishment, type OperatorLift, type PunishmentOrigin, type PunishmentRecord, PunishmentsRepository } from './punishments.repository';

export interface IssuedPunishment {
  id: string;
  kind: PunishmentKind;
  uuid: string;
  mcid: string;
  reason: string;
  testment: string | null;
  issuedBy: string;
  issuedAt: Date;
}

/** A lift names the punishment by the sender's own id, or by the service's id (one imported from the original). */
export interface LiftedPunishment {
  kind: PunishmentKind;
  id?: string;
  punishmentId?: number;
  liftedAt: Date;
}

/** What an operator's lift came to. */
export type OperatorLiftOutcome = { outcome: 'lifted'; record: PunishmentRecord } | { outcome: 'missing' } | { outcome: 'already-lifted'; record: PunishmentRecord };

export interface IngestCounts {
  accepted: number;
  skipped: number;
}

/** The event payload: the punishment as the API shows it, times in ISO 8601. */
export function eventDataOf(record: PunishmentRecord): PunishmentEventData {
  return {
    punishment: {
      id: record.id,
      kind: record.kind,
      uuid: record.uuid,
      mcid: record.mcid,
      reason: record.reason,
      testment: record.testment,
      active: record.active,
      issuedBy: record.issuedBy,
      issuedAt: record.issuedAt.toISOString(),
      liftedAt: record.liftedAt?.toISOString() ?? null,
    },
  };
}

/**
 * Punishments the game server reports, issued and lifted: each batch in one transaction, with a
 * `punishment.issued` / `punishment.lifted` event per change in the same transaction.
 */
@Injectable()
export class PunishmentsService {
  constructor(
    private readonly repository: PunishmentsRepository,
    private readonly players: PlayersService,
    private readonly events: EventsService,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** Stores new punishments; a re-sent id (per kind) is skipped. */
  async issue(items: readonly IssuedPunishment[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction(async (tx) => {
      await this.ensurePlayers(tx, items);
      let accepted = 0;
      for (const item of items) {
        const id = await this.repository.insertOne(tx, 'game-server', { ...item, uuid: item.uuid.toLowerCase(), sourceId: item.id, active: true, liftedAt: null });
        if (id !== null) {
          accepted += 1;
          await this.record(tx, 'punishment.issued', id);
        }
      }
      return { accepted, skipped: items.length - accepted };
    });
  }

  /** Lifts punishments in force; a lift of one lifted already changes nothing and counts as skipped. An unknown one refuses the batch. */
  async lift(items: readonly LiftedPunishment[]): Promise<IngestCounts> {
    return this.unitOfWork.transaction(async (tx) => {
      let accepted = 0;
      for (const [index, item] of items.entries()) {
        const found = item.id !== undefined ? await this.repository.getBySourceIn(tx, 'game-server', item.kind, item.id) : await this.repository.getByIdIn(tx, item.punishmentId ?? 0);
        if (!found || found.kind !== item.kind) {
          const field = item.id !== undefined ? `lifts.${index}.id` : `lifts.${index}.punishmentId`;
          throw ApiError.invalidField(field, msg('punishments.unknown', { field, kind: item.kind }));
        }
        if (await this.repository.lift(tx, found.id, item.liftedAt)) {
          accepted += 1;
          await this.record(tx, 'punishment.lifted', found.id);
        } else if (found.liftedBy !== null && found.liftConfirmedAt === null) {
          // Lifted already by an operator, not yet confirmed: this report is that lift's confirmation
          // (no event). Any other repeat changes nothing.
          await this.repository.confirmLift(tx, found.id, item.liftedAt);
        }
      }
      return { accepted, skipped: items.length - accepted };
    });
  }

  /**
   * An operator's lift (the moderation API, docs/api.md), inside the caller's transaction so that
   * its history entry commits with it: the punishment is read locked (MySQL), lifted by a
   * conditional UPDATE, and one `punishment.lifted` event is recorded, from which the game server
   * learns it (docs/game-server.md). The game server's own later report of the same lift finds the
   * punishment lifted already: no second event, only the time of its confirmation (`lift` above).
   */
  async liftByOperatorIn(tx: Transaction, id: number, kind: PunishmentKind, lift: OperatorLift): Promise<OperatorLiftOutcome> {
    const found = await this.repository.getByIdIn(tx, id);
    if (!found || found.kind !== kind) {
      return { outcome: 'missing' };
    }
    if (!(await this.repository.liftByOperator(tx, id, lift))) {
      return { outcome: 'already-lifted', record: found };
    }
    const record = await this.repository.getByIdIn(tx, id);
    if (!record) {
      return { outcome: 'missing' };
    }
    await this.events.record(tx, 'punishment.lifted', { ...eventDataOf(record) });
    return { outcome: 'lifted', record };
  }

  /** The import's half (no events: history is not news): rows keyed by the source's (table, id). */
  async importIn(tx: Transaction, origin: PunishmentOrigin, rows: readonly NewPunishment[]): Promise<IngestCounts> {
    await this.ensurePlayers(tx, rows);
    const accepted = await this.repository.insertMany(tx, origin, rows);
    return { accepted, skipped: rows.length - accepted };
  }

  /**
   * A player unknown to `players` gets a bare row (no first login), as a user key does, so the
   * players site finds them by uuid. Sorted, so concurrent batches lock players in one order.
   * A name that is not a game id (an odd one in the original's history) adds no row.
   */
  private async ensurePlayers(tx: Transaction, items: ReadonlyArray<{ uuid: string; mcid: string }>): Promise<void> {
    const names = new Map<string, string>();
    for (const item of items) {
      if (MCID_PATTERN.test(item.mcid)) {
        names.set(item.uuid.toLowerCase(), item.mcid);
      }
    }
    await this.players.ensureAll(tx, [...names].map(([uuid, mcid]) => ({ uuid, mcid })));
  }

  private async record(tx: Transaction, type: EventType, id: number): Promise<void> {
    const record = await this.repository.getByIdIn(tx, id);
    if (record) {
      await this.events.record(tx, type, { ...eventDataOf(record) });
    }
  }
}
