import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The `votes` data topic: each vote site's count levels are cached until a vote batch or an
 * import moves a player between them (docs/design-and-performance.md, "The players site"), so a
 * vote rank is a binary search, not a sum over the levels in the database per request.
 */
export class VotesTopic1764300900000 implements MigrationInterface {
  name = 'VotesTopic1764300900000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("INSERT INTO data_versions (name, version) VALUES ('votes', 0)");
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query("DELETE FROM data_versions WHERE name = 'votes'");
  }
}
