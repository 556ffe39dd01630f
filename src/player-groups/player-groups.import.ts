import { Injectable } from '@nestjs/common';
import type { Transaction } from '../database/transaction';
import type { IngestCounts } from '../votes/votes.service';
import { normaliseGroup } from './group-choice';
import { PlayerGroupsService } from './player-groups.service';

/** A source row of `permissions`: the group (any case; blank: default), its end, and its time (`updated_at`). */
export interface ImportedGroupRow {
  /** The source row's key (for the importer's report; the stored key is the player). */
  sourceId: string;
  uuid: string;
  group: string | null;
  expiresAt: Date | null;
  at: Date | null;
}

/**
 * What the import of the original database calls, inside its own transaction. Idempotent: a
 * rerun replaces what an earlier import stored; a group the game server reported stays.
 */
@Injectable()
export class PlayerGroupsImport {
  constructor(private readonly groups: PlayerGroupsService) {}

  /**
   * accepted: groups created or changed; skipped: unchanged (a rerun), kept (reported here), or
   * replaced by a later row of the same player in the call.
   */
  async importGroupsIn(tx: Transaction, rows: readonly ImportedGroupRow[]): Promise<IngestCounts> {
    const accepted = await this.groups.importIn(
      tx,
      rows.map((row) => ({ uuid: row.uuid.toLowerCase(), group: normaliseGroup(row.group) ?? 'default', expiresAt: row.expiresAt, at: row.at })),
    );
    return { accepted, skipped: rows.length - accepted };
  }
}
