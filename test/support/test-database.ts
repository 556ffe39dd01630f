import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';

/** Which database the e2e suite runs on: SQLite by default, MariaDB with TEST_DATABASE=mysql. */
export const testDatabaseKind = process.env.TEST_DATABASE === 'mysql' ? 'mysql' : 'sqlite';

const MYSQL_ADMIN_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A throwaway database: a temp SQLite file, or a fresh MariaDB schema dropped afterwards. `kind`
 * defaults to TEST_DATABASE; the fault suite names it, since it runs once whatever TEST_DATABASE says.
 */
export async function createTestDatabase(kind: 'sqlite' | 'mysql' = testDatabaseKind): Promise<TestDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'community-test-'));
    return { url: `sqlite:${join(dir, 'test.sqlite')}`, drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })) };
  }
  const name = `community_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = await createConnection(MYSQL_ADMIN_URL);
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  return {
    url: `${MYSQL_ADMIN_URL}/${name}`,
    drop: async () => {
      const connection = await createConnection(MYSQL_ADMIN_URL);
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      // A restore's scratch database and the databases it keeps are named after this one.
      const [related] = await connection.query<Array<{ name: string }> & RowDataPacket[]>('SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?', [`${name}\\_%`]);
      for (const { name: other } of related) {
        await connection.query(`DROP DATABASE IF EXISTS \`${other}\``);
      }
      await connection.end();
    },
  };
}
