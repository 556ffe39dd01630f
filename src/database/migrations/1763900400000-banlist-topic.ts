import { MigrationInterface, QueryRunner } from 'typeorm';

/** A data-version topic for the ban-list mirror, so its per-player reads can be cached safely. */
export class BanlistTopic1763900400000 implements MigrationInterface {
  name = 'BanlistTopic1763900400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO data_versions (name, version) VALUES ('banlist', 0)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM data_versions WHERE name = 'banlist'");
  }
}
