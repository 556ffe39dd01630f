import { Refused } from './refusals';

/**
 * A `mariadb-dump` file into the scratch database. Until the dump reader (which parses the file
 * and lets through only allow-listed statements, never running client commands) is part of this
 * version, such a file is refused: it is never piped to the `mariadb` client.
 */
export function loadMysqlDump(_databaseUrl: string, source: string, _scratch: string): Promise<void> {
  return Promise.reject(new Refused(`${source} is a mariadb-dump file, which this version does not load; take a portable backup with \`backup --out FILE\` instead`));
}
