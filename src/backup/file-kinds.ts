import { head } from './backup-file';

export type BackupFileKind = 'portable' | 'sqlite' | 'mysql-dump' | 'unknown';

/**
 * What a file to restore is, from its first bytes: a portable backup (gzip), an old `VACUUM INTO`
 * SQLite copy, or a `mariadb-dump` file (it names its tool in its first lines).
 */
export function backupFileKind(path: string): BackupFileKind {
  const start = head(path, 512);
  if (start.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))) {
    return 'portable';
  }
  if (start.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000') {
    return 'sqlite';
  }
  if (/^-- (MariaDB|MySQL) dump/m.test(start.toString('utf8'))) {
    return 'mysql-dump';
  }
  return 'unknown';
}
