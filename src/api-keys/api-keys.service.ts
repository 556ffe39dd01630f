import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hashSecret, newApiKey } from '../common/secrets';
import { isUniqueViolation } from '../database/database-errors';
import { SqlReader } from '../database/sql-reader';
import { dateOf } from '../database/transformers';
import { ApiKey, ApiScope } from './api-key.entity';

export interface ApiKeyPrincipal {
  id: number;
  name: string;
  scopes: ApiScope[];
}

export class ApiKeyNameTaken extends Error {}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Names compare case-insensitively (contract 13.10). */
export function apiKeyNameKey(name: string): string {
  return name.toLowerCase();
}

@Injectable()
export class ApiKeysService {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
    private readonly reader: SqlReader,
  ) {}

  async create(name: string, scopes: ApiScope[]): Promise<{ name: string; key: string; scopes: ApiScope[] }> {
    const key = newApiKey();
    try {
      await this.keys.insert({ name, nameKey: apiKeyNameKey(name), keyHash: hashSecret(key), scopes: [...new Set(scopes)], createdAt: new Date(), lastUsedAt: null });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ApiKeyNameTaken(`An API key named "${name}" already exists.`);
      }
      throw error;
    }
    return { name, key, scopes: [...new Set(scopes)] };
  }

  list(): Promise<ApiKey[]> {
    return this.keys.find({ order: { id: 'ASC' } });
  }

  async revoke(name: string): Promise<boolean> {
    const result = await this.keys.delete({ nameKey: apiKeyNameKey(name) });
    return (result.affected ?? 0) > 0;
  }

  /** The key's principal, or undefined for an unknown key. Records use at most once a minute. */
  async authenticate(key: string): Promise<ApiKeyPrincipal | undefined> {
    const found = await this.reader.one<{ id: number | string; name: string; scopes: string; lastUsedAt: Date | string | null }>(
      'SELECT id, name, scopes, last_used_at AS lastUsedAt FROM api_keys WHERE key_hash = ?',
      [hashSecret(key)],
    );
    if (!found) {
      return undefined;
    }
    const now = Date.now();
    const id = Number(found.id);
    if (!found.lastUsedAt || now - dateOf(found.lastUsedAt).getTime() >= LAST_USED_RESOLUTION_MS) {
      const stale = new Date(now - LAST_USED_RESOLUTION_MS);
      // Conditional so that concurrent requests write once per minute, not once each.
      await this.keys
        .createQueryBuilder()
        .update()
        .set({ lastUsedAt: new Date(now) })
        .where('id = :id AND (last_used_at IS NULL OR last_used_at < :stale)', { id, stale })
        .execute();
    }
    return { id, name: found.name, scopes: found.scopes.split(',').filter(Boolean) as ApiScope[] };
  }
}
