import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-columns';

/**
 * Change counters for cached reads: every write transaction that can change what a cached read
 * shows bumps its topic's counter, and a cached read is served only while the counters it was
 * built at are unchanged. Correct across instances sharing the database, without Redis.
 */
export class DataVersions1763800004000 implements MigrationInterface {
  name = 'DataVersions1763800004000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({ name: 'data_versions', columns: [{ ...columns.varchar('name', 32), isPrimary: true }, { ...columns.bigint('version'), default: 0 }] }),
    );
    await queryRunner.query("INSERT INTO data_versions (name, version) VALUES ('cities', 0), ('players', 0)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('data_versions');
  }
}
