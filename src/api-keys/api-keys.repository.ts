import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../database/database-errors';
import { SqlReader } from '../database/sql-reader';
import type { Transaction } from '../database/transaction';
import { dateOf, type DbTime } from '../database/transformers';
import type { ApiScope } from './api-key.entity';

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
  id: number;
  name: string;
  scopes: string;
  createdAt: DbTime;
  lastUsedAt: DbTime | null;
}

const KEY = 'SELECT id, name, scopes, created_at AS createdAt, last_used_at AS lastUsedAt FROM api_keys';
const BY_HASH_SQL = `${KEY} WHERE key_hash = ?`;
const BY_ID_SQL = `${KEY} WHERE id = ?`;
const ALL_SQL = `${KEY} ORDER BY id ASC`;
const INSERT_SQL = 'INSERT INTO api_keys (name, name_key, key_hash, scopes, created_at, last_used_at) VALUES (?, ?, ?, ?, ?, NULL)';
const HASH_BY_NAME_SQL = 'SELECT id, key_hash AS keyHash FROM api_keys WHERE name_key = ?';
const TOUCH_SQL = 'UPDATE api_keys SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)';

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
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
      await tx.run(INSERT_SQL, [name, apiKeyNameKey(name), keyHash, scopes.join(','), tx.time(createdAt)]);
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
    const key = await tx.one<{ id: number; keyHash: string }>(HASH_BY_NAME_SQL, [apiKeyNameKey(name)]);
    if (!key) {
      return false;
    }
    await tx.run('DELETE FROM api_keys WHERE id = ?', [key.id]);
    await tx.run('DELETE FROM api_key_revocations WHERE key_hash = ?', [key.keyHash]);
    await tx.run('INSERT INTO api_key_revocations (key_hash, revoked_at) VALUES (?, ?)', [key.keyHash, tx.time(now)]);
    return true;
  }

  /** Records a use unless one was recorded since `stale`, so concurrent requests write once. */
  async touch(tx: Transaction, id: number, now: Date, stale: Date): Promise<void> {
    await tx.run(TOUCH_SQL, [tx.time(now), id, tx.time(stale)]);
  }
}
