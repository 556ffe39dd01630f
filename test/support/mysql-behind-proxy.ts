import { createConnection } from 'mysql2/promise';
import { TcpProxy } from './tcp-proxy';
import type { TestDatabase } from './test-database';

/** A TCP proxy in front of a MariaDB test database, and the DATABASE_URL that goes through it. */
export async function mysqlBehindProxy(database: TestDatabase): Promise<{ proxy: TcpProxy; url: string }> {
  const direct = new URL(database.url);
  const proxy = new TcpProxy(direct.hostname, Number(direct.port || 3306));
  const viaProxy = new URL(database.url);
  viaProxy.port = String(await proxy.start());
  return { proxy, url: viaProxy.toString() };
}

/** Reads the database behind the proxy's back (what is really stored). */
export async function directQuery<T>(database: TestDatabase, sql: string, values: unknown[] = []): Promise<T[]> {
  const connection = await createConnection(database.url);
  try {
    const [rows] = await connection.query(sql, values);
    return rows as T[];
  } finally {
    await connection.end();
  }
}
