import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/database-errors';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/unit-of-work';
import { dateOf } from '../database/transformers';
import { ApiKey, ApiScope } from './api-key.entity';

/** Names compare case-insensitively (docs/operations.md, The command line): the unique index is on this key. */
export function apiKeyNameKey(name: string): string {
  return name.toLowerCase();
}

/** An API key as reads return it (never its hash). */
export interface ApiKeyRecord {
  id: number;
  name: string;
  scopes: ApiScope[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

interface ApiKeyRow {
  id: number | string;
  name: string;
  scopes: string;
  createdAt: Date | string;
  lastUsedAt: Date | string | null;
}

const KEY = 'SELECT id, name, scopes, created_at AS createdAt, last_used_at AS lastUsedAt FROM api_keys';
const BY_HASH_SQL = `${KEY} WHERE key_hash = ?`;
const BY_ID_SQL = `${KEY} WHERE id = ?`;
const ALL_SQL = `${KEY} ORDER BY id ASC`;

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: Number(row.id),
    name: row.name,
    scopes: row.scopes.split(',').filter(Boolean) as ApiScope[],
    createdAt: dateOf(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : dateOf(row.lastUsedAt),
  };
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly reader: SqlReader) {}

  async getById(id: number): Promise<ApiKeyRecord | null> {
    const row = await this.reader.one<ApiKeyRow>(BY_ID_SQL, [id]);
    return row ? toApiKey(row) : null;
  }

  /** False when the name is taken. */
  async create(tx: Transaction, name: string, keyHash: string, scopes: readonly ApiScope[], createdAt: Date): Promise<boolean> {
    try {
      await tx.insert(ApiKey, { name, nameKey: apiKeyNameKey(name), keyHash, scopes: [...scopes], createdAt, lastUsedAt: null });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) {
        return false;
      }
      throw error;
    }
  }

  async getAll(): Promise<ApiKeyRecord[]> {
    return (await this.reader.all<ApiKeyRow>(ALL_SQL)).map(toApiKey);
  }

  async getByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.reader.one<ApiKeyRow>(BY_HASH_SQL, [keyHash]);
    return row ? toApiKey(row) : null;
  }

  /**
   * False when no key has the name (names compare case-insensitively). The key's hash is kept in
   * the revocation list, which a restore applies to the data it puts back.
   */
  async deleteByName(tx: Transaction, name: string, now: Date): Promise<boolean> {
    const key = await tx.findOne(ApiKey, { where: { nameKey: apiKeyNameKey(name) }, select: { id: true, keyHash: true } });
    if (!key) {
      return false;
    }
    await tx.delete(ApiKey, { id: key.id });
    await tx.query('DELETE FROM api_key_revocations WHERE key_hash = ?', [key.keyHash]);
    await tx.query('INSERT INTO api_key_revocations (key_hash, revoked_at) VALUES (?, ?)', [key.keyHash, now.toISOString().slice(0, 23).replace('T', ' ')]);
    return true;
  }

  /** Records a use unless one was recorded since `stale`, so concurrent requests write once. */
  async touch(tx: Transaction, id: number, now: Date, stale: Date): Promise<void> {
    await tx
      .createQueryBuilder()
      .update(ApiKey)
      .set({ lastUsedAt: now })
      .where('id = :id AND (last_used_at IS NULL OR last_used_at < :stale)', { id, stale })
      .execute();
  }
}
