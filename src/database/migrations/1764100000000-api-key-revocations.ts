import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-columns';

/**
 * The hashes of revoked API keys. A restore puts back an older database, which may hold a key
 * revoked since: the restore reads this list from the database it replaces and removes those keys
 * from the restored data (docs/backup-and-restore.md, Credentials after a restore), so a revoked
 * key never works again.
 */
export class ApiKeyRevocations1764100000000 implements MigrationInterface {
  name = 'ApiKeyRevocations1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({ name: 'api_key_revocations', columns: [{ ...columns.varchar('key_hash', 64), isPrimary: true }, columns.time('revoked_at')] }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_key_revocations');
  }
}
