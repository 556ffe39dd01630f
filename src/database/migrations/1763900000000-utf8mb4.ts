import { MigrationInterface, QueryRunner } from 'typeorm';
import { convertTablesToUtf8mb4, setDatabaseDefaultToUtf8mb4 } from '../utf8mb4';

/**
 * MySQL/MariaDB: existing tables of a database created with another default character set
 * (latin1) become utf8mb4, and so does the database default. Nothing to do on SQLite. The
 * migration runner repeats the check after every run (migration-runner.ts), so tables created
 * by later migrations are covered too.
 */
export class Utf8mb4Everywhere1763900000000 implements MigrationInterface {
  name = 'Utf8mb4Everywhere1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type !== 'mysql') {
      return;
    }
    await setDatabaseDefaultToUtf8mb4(queryRunner);
    await convertTablesToUtf8mb4(queryRunner);
  }

  async down(): Promise<void> {
    // Converting back to a narrower character set would lose data: deliberately nothing.
  }
}
