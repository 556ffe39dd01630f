import { MigrationInterface, QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * Cities, their requests and the audit trail.
 *
 * `name_key`/`kana_key` hold the normalised names while the city is pending-create or registered
 * and NULL once rejected or deleted: unique indexes over them make name uniqueness hold under
 * concurrent requests on both databases (NULLs never collide). `pending_key` does the same for
 * "one pending request per city and type". The min/max columns feed the bounding-box prefilter of
 * the overlap check.
 */
export class Cities1763800001000 implements MigrationInterface {
  name = 'Cities1763800001000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const box = [columns.int('min_x', true), columns.int('max_x', true), columns.int('min_z', true), columns.int('max_z', true)];

    await queryRunner.createTable(
      new Table({
        name: 'cities',
        columns: [
          columns.id(),
          columns.varchar('state', 16),
          columns.uuid('owner_uuid'),
          columns.varchar('name', 64),
          columns.varchar('name_kana', 64),
          keyColumn(queryRunner, 'name_key', 255, true),
          keyColumn(queryRunner, 'kana_key', 255, true),
          columns.text('summary'),
          columns.text('origin'),
          columns.text('reason'),
          columns.text('remarks'),
          columns.text('corners', false),
          columns.int('block_count'),
          ...box.map((column) => ({ ...column, isNullable: false })),
          columns.time('created_at'),
          columns.time('updated_at'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_cities_name_key', columnNames: ['name_key'], isUnique: true }),
          new TableIndex({ name: 'UQ_cities_kana_key', columnNames: ['kana_key'], isUnique: true }),
          new TableIndex({ name: 'IDX_cities_owner_state', columnNames: ['owner_uuid', 'state'] }),
          new TableIndex({ name: 'IDX_cities_state_box', columnNames: ['state', 'min_x', 'max_x', 'min_z', 'max_z'] }),
        ],
        foreignKeys: [new TableForeignKey({ columnNames: ['owner_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] })],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'city_requests',
        columns: [
          columns.id(),
          columns.int('city_id'),
          columns.varchar('type', 16),
          columns.varchar('status', 16),
          keyColumn(queryRunner, 'pending_key', 32, true),
          columns.text('changes', false),
          columns.uuid('requester_uuid'),
          columns.text('remarks'),
          ...box,
          columns.time('created_at'),
          columns.time('decided_at', true),
          columns.varchar('decided_by', 128, true),
          columns.text('reject_reason'),
        ],
        indices: [
          new TableIndex({ name: 'UQ_city_requests_pending_key', columnNames: ['pending_key'], isUnique: true }),
          new TableIndex({ name: 'IDX_city_requests_city_type_status', columnNames: ['city_id', 'type', 'status'] }),
          new TableIndex({ name: 'IDX_city_requests_status_id', columnNames: ['status', 'id'] }),
          new TableIndex({ name: 'IDX_city_requests_box', columnNames: ['type', 'status', 'min_x', 'max_x', 'min_z', 'max_z'] }),
        ],
        foreignKeys: [
          new TableForeignKey({ columnNames: ['city_id'], referencedTableName: 'cities', referencedColumnNames: ['id'] }),
          new TableForeignKey({ columnNames: ['requester_uuid'], referencedTableName: 'players', referencedColumnNames: ['uuid'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'city_audit',
        columns: [
          columns.id(),
          columns.int('city_id'),
          columns.int('request_id', true),
          columns.varchar('actor', 128),
          columns.varchar('action', 32),
          columns.text('before_state'),
          columns.text('after_state'),
          columns.time('at'),
        ],
        indices: [new TableIndex({ name: 'IDX_city_audit_city', columnNames: ['city_id', 'id'] })],
        foreignKeys: [new TableForeignKey({ columnNames: ['city_id'], referencedTableName: 'cities', referencedColumnNames: ['id'] })],
      }),
    );

    // The lock row city writes serialise on (see src/cities/city-lock.ts).
    await queryRunner.query("INSERT INTO app_locks (name) VALUES ('cities')");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM app_locks WHERE name = 'cities'");
    for (const table of ['city_audit', 'city_requests', 'cities']) {
      await queryRunner.dropTable(table);
    }
  }
}
