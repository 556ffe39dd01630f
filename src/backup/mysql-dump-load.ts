import { createReadStream } from 'node:fs';
import { SCHEMA_TABLES } from './backup-tables';
import { BOOKKEEPING_TABLES } from './backup-tables';
import { mysqlMigrations, mysqlTables, openMysql } from './mysql-access';
import { checkMigrationLevel } from './migration-levels';
import { DumpRefused, readMysqlDump } from './mysql-dump';
import { messageOf, Refused } from './refusals';

/**
 * A `mariadb-dump` file (an old backup) into the scratch database. The file is never given to
 * the `mariadb` client: mysql-dump.ts reads it statement by statement and lets through only
 * table definitions, rows of literals and session settings (client commands such as `\!`, other
 * databases, anything else: refused). The tables and rows run here, in the scratch database
 * only, one statement at a time; the session settings are not needed and are skipped. Then the
 * result must be this service's schema at a level this version knows; the restore migrates the
 * rest and checks the schema like any other.
 */
export async function loadMysqlDump(databaseUrl: string, source: string, scratch: string): Promise<void> {
  const connection = (await openMysql(databaseUrl, scratch)).promise();
  try {
    await connection.query("SET SESSION FOREIGN_KEY_CHECKS = 0, SQL_MODE = 'STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION'");
    try {
      for await (const statement of readMysqlDump(createReadStream(source))) {
        if (statement.kind === 'session') {
          continue;
        }
        if (statement.table !== null && !SCHEMA_TABLES.includes(statement.table as (typeof SCHEMA_TABLES)[number]) && !BOOKKEEPING_TABLES.has(statement.table)) {
          throw new Refused(`line ${statement.line} of the dump names table ${statement.table}, which is not part of this service's schema (another service's dump)`);
        }
        try {
          await connection.query(statement.sql);
        } catch (error) {
          const errno = (error as { errno?: number }).errno;
          throw new Refused(`line ${statement.line} of the dump: MariaDB refused the statement (error ${errno ?? 'unknown'})`);
        }
      }
    } catch (error) {
      if (error instanceof DumpRefused) {
        throw new Refused(`the dump is refused: ${error.message}`);
      }
      if (error instanceof Refused) {
        throw error;
      }
      if ((error as { code?: string }).code === 'ENOENT') {
        throw new Refused(`${source} does not exist`);
      }
      throw new Error(`reading the dump failed: ${messageOf(error)}`, { cause: error });
    }
    const migrations = await mysqlMigrations(connection, scratch);
    if (migrations.length === 0) {
      throw new Refused("the dump is not of this service's database (it has no migrations table)");
    }
    checkMigrationLevel(migrations);
    const tables = new Set((await mysqlTables(connection, scratch)).map((table) => table.name));
    for (const needed of ['event_seq', 'players', 'cities']) {
      if (!tables.has(needed)) {
        throw new Refused(`the dump is not a complete backup of this service (no ${needed} table)`);
      }
    }
  } finally {
    await connection.end();
  }
}
