import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A data-version topic of its own for what city views show of their owners, so that login
 * batches of players who own no city no longer invalidate the city list.
 */
export class CityOwnersTopic1763900300000 implements MigrationInterface {
  name = 'CityOwnersTopic1763900300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO data_versions (name, version) VALUES ('city-owners', 0)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM data_versions WHERE name = 'city-owners'");
  }
}
