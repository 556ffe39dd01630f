import { Injectable } from '@nestjs/common';
import { hashSecret, newApiKey } from '../common/secrets';
import { UnitOfWork } from '../database/unit-of-work';
import type { ApiScope } from './api-key.entity';
import { ApiKeyRecord, ApiKeysRepository } from './api-keys.repository';

export interface ApiKeyPrincipal {
  id: number;
  name: string;
  scopes: ApiScope[];
}

export class ApiKeyNameTaken extends Error {}

const LAST_USED_RESOLUTION_MS = 60_000;

@Injectable()
export class ApiKeysService {
  // Every write goes through the unit of work: on SQLite a write beside it would join whatever
  // transaction is open on the shared connection and be undone by its rollback.
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  async create(name: string, scopes: ApiScope[]): Promise<{ name: string; key: string; scopes: ApiScope[] }> {
    const key = newApiKey();
    const unique = [...new Set(scopes)];
    if (!(await this.unitOfWork.transaction((tx) => this.keys.create(tx, name, hashSecret(key), unique, new Date())))) {
      throw new ApiKeyNameTaken(`An API key named "${name}" already exists.`);
    }
    return { name, key, scopes: unique };
  }

  list(): Promise<ApiKeyRecord[]> {
    return this.keys.getAll();
  }

  revoke(name: string): Promise<boolean> {
    return this.unitOfWork.transaction((tx) => this.keys.deleteByName(tx, name, new Date()));
  }

  /** The principal of a key still present (a console session holds the id, never the key); undefined once revoked. */
  async principalById(id: number): Promise<ApiKeyPrincipal | undefined> {
    const found = await this.keys.getById(id);
    return found ? { id: found.id, name: found.name, scopes: found.scopes } : undefined;
  }

  /** The key's principal, or undefined for an unknown key. Records use at most once a minute. */
  async authenticate(key: string): Promise<ApiKeyPrincipal | undefined> {
    const found = await this.keys.getByHash(hashSecret(key));
    if (!found) {
      return undefined;
    }
    const now = Date.now();
    if (!found.lastUsedAt || now - found.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.unitOfWork.transaction((tx) => this.keys.touch(tx, found.id, new Date(now), new Date(now - LAST_USED_RESOLUTION_MS)));
    }
    return { id: found.id, name: found.name, scopes: found.scopes };
  }
}
