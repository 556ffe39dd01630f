import { Injectable } from '@nestjs/common';
import { SqlReader } from '../database/sql-reader';
import { dateOf, type DbTime } from '../database/transformers';
import type { Transaction } from '../database/transaction';

/** A stored user key, whatever its state. */
export interface UserKeyRecord {
  id: number;
  playerUuid: string;
  expiresAt: Date;
  spent: boolean;
}

interface UserKeyRow {
  id: number;
  playerUuid: string;
  expiresAt: DbTime;
  spentAt: DbTime | null;
}

const USER_KEY_SQL = 'SELECT id, player_uuid AS playerUuid, expires_at AS expiresAt, spent_at AS spentAt FROM user_keys WHERE key_hash = ?';

function toUserKey(row: UserKeyRow): UserKeyRecord {
  return { id: row.id, playerUuid: row.playerUuid, expiresAt: dateOf(row.expiresAt), spent: row.spentAt !== null };
}

/** User keys (single-use keys from the game, stored as hashes): the one owner of `user_keys`. */
@Injectable()
export class UserKeysRepository {
  constructor(private readonly reader: SqlReader) {}

  /** Replaces a player's user key (one per player). */
  async replace(tx: Transaction, playerUuid: string, keyHash: string, createdAt: Date, expiresAt: Date): Promise<void> {
    await tx.run('DELETE FROM user_keys WHERE player_uuid = ?', [playerUuid]);
    await tx.run('INSERT INTO user_keys (player_uuid, key_hash, created_at, expires_at, spent_at) VALUES (?, ?, ?, ?, NULL)', [
      playerUuid,
      keyHash,
      tx.time(createdAt),
      tx.time(expiresAt),
    ]);
  }

  async getByHash(keyHash: string): Promise<UserKeyRecord | null> {
    const row = await this.reader.one<UserKeyRow>(USER_KEY_SQL, [keyHash]);
    return row ? toUserKey(row) : null;
  }

  /** Spends an unspent, unexpired key; false when another request spent it first (or it expired). */
  async spend(tx: Transaction, id: number, now: Date): Promise<boolean> {
    const time = tx.time(now);
    const { affectedRows } = await tx.run('UPDATE user_keys SET spent_at = ? WHERE id = ? AND spent_at IS NULL AND expires_at > ?', [time, id, time]);
    return affectedRows === 1;
  }
}
