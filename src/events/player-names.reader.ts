import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import type { PlayerName } from './discord-message';

/**
 * Who a player is, for Discord messages (mention by chat id when linked). A read of the `players`
 * table, which the players feature owns and alone writes; it lives here rather than behind that
 * feature's repository because the outbox depends on no feature module.
 */
@Injectable()
export class PlayerNamesReader {
  constructor(private readonly reader: SqlReader) {}

  async byUuid(uuids: string[]): Promise<Map<string, PlayerName>> {
    const names = new Map<string, PlayerName>();
    if (uuids.length === 0) {
      return names;
    }
    const rows = await this.reader.all<{ uuid: string; mcid: string | null; chatid: string | null }>(
      `SELECT uuid, mcid, chatid FROM players WHERE uuid IN (${uuids.map(() => '?').join(', ')})`,
      uuids,
    );
    for (const row of rows) {
      names.set(row.uuid, { mcid: row.mcid ?? null, chatid: row.chatid ?? null });
    }
    return names;
  }
}
