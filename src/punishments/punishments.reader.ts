import { Injectable } from '@nestjs/common';
import { countByKind, labelOf, type PunishmentKind, type PunishmentLabel } from './punishment-kinds';
import { type NamedPunishmentRecord, type PunishmentFilter, type PunishmentRecord, PunishmentsRepository } from './punishments.repository';

export type { NamedPunishmentRecord } from './punishments.repository';

export interface PlayerPunishments {
  counts: { jail: number; chatjail: number; eban: number; vban: number };
  /** Newest first. */
  items: Array<{
    kind: PunishmentLabel;
    id: number;
    mcid: string;
    reason: string;
    testment: string | null;
    active: boolean;
    issuedBy: string;
    issuedAt: Date;
    liftedAt: Date | null;
  }>;
}

/** What the players and bans sites read of punishments: one range of one index per call. */
@Injectable()
export class PunishmentsReader {
  constructor(private readonly repository: PunishmentsRepository) {}

  /** Every punishment of the player (every kind and state), newest first, and how many of each kind. */
  async forPlayer(uuid: string): Promise<PlayerPunishments> {
    const records = await this.repository.listForPlayer(uuid.toLowerCase());
    return {
      counts: countByKind(records.map((record) => record.kind)),
      items: records.map((record) => ({
        kind: labelOf(record.kind),
        id: record.id,
        mcid: record.mcid,
        reason: record.reason,
        testment: record.testment,
        active: record.active,
        issuedBy: record.issuedBy,
        issuedAt: record.issuedAt,
        liftedAt: record.liftedAt,
      })),
    };
  }

  /** One punishment by the service's id (the moderation API); null when there is none. */
  byId(id: number): Promise<PunishmentRecord | null> {
    return this.repository.getById(id);
  }

  /** A player's punishments as stored, every kind and state, newest first (the moderation API). */
  recordsOf(uuid: string): Promise<PunishmentRecord[]> {
    return this.repository.listForPlayer(uuid.toLowerCase());
  }

  /** The moderation list's page of punishments, newest first. */
  list(filter: PunishmentFilter, limit: number): Promise<PunishmentRecord[]> {
    return this.repository.list(filter, limit);
  }

  /** Punishments of a kind, newest first, with the player's current name (the bans site's lists); `limit` null: all. */
  listOfKind(kind: PunishmentKind, activeOnly: boolean, limit: number | null): Promise<NamedPunishmentRecord[]> {
    return this.repository.listOfKind(kind, activeOnly, limit);
  }

  countOfKind(kind: PunishmentKind, activeOnly: boolean): Promise<number> {
    return this.repository.countOfKind(kind, activeOnly);
  }

  /** One punishment of a kind by the service's id (null: none of that kind). */
  named(kind: PunishmentKind, id: number): Promise<NamedPunishmentRecord | null> {
    return this.repository.getNamed(kind, id);
  }

  /** Every punishment of the player, newest first, with the player's current name. */
  namedForPlayer(uuid: string): Promise<NamedPunishmentRecord[]> {
    return this.repository.listNamedForPlayer(uuid.toLowerCase());
  }

  /** True when the player has any punishment (a player known only by one is still a known player). */
  hasAny(uuid: string): Promise<boolean> {
    return this.repository.hasAnyForPlayer(uuid.toLowerCase());
  }
}
