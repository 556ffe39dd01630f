import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `mini-games` data topic: each category's ladder of scores is cached until a result is
 * stored (docs/players-site.md, "Speed"), so a place is a binary search, not a count.
 */
export class MiniGamesTopic1764300600000 implements MigrationInterface {
  name = 'MiniGamesTopic1764300600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO data_versions (name, version) VALUES ('mini-games', 0)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM data_versions WHERE name = 'mini-games'");
  }
}
