import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columns } from '../migration-columns';

/** The import of the original service's database remembers what it made of each request and club account row. */
export class OriginalImport1764000000000 implements MigrationInterface {
  name = 'OriginalImport1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: 'original_import_links',
        columns: [
          { ...columns.varchar('source_table', 64), isPrimary: true },
          { ...columns.varchar('source_id', 64), isPrimary: true },
          columns.int('target_id'),
          columns.varchar('imported_state', 128),
          columns.time('created_at'),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('original_import_links');
  }
}
