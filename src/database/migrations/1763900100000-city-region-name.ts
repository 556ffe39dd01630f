import { MigrationInterface, QueryRunner, TableColumn, TableIndex } from 'typeorm';
import { columns, keyColumn } from '../migration-columns';

/**
 * A city's game-server protection region id. `region_name` is what the city shows;
 * `region_key` holds the same value while the city is pending-create or registered and NULL once
 * rejected or deleted, so a unique index makes the id unique among claiming cities (as name_key).
 * A player's own requests are listed by requester, newest id last.
 */
export class CityRegionName1763900100000 implements MigrationInterface {
  name = 'CityRegionName1763900100000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('cities', [new TableColumn(columns.varchar('region_name', 32, true)), new TableColumn(keyColumn(queryRunner, 'region_key', 32, true))]);
    await queryRunner.createIndex('cities', new TableIndex({ name: 'UQ_cities_region_key', columnNames: ['region_key'], isUnique: true }));
    await queryRunner.createIndex('city_requests', new TableIndex({ name: 'IDX_city_requests_requester', columnNames: ['requester_uuid', 'id'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('city_requests', 'IDX_city_requests_requester');
    await queryRunner.dropIndex('cities', 'UQ_cities_region_key');
    await queryRunner.dropColumns('cities', ['region_key', 'region_name']);
  }
}
