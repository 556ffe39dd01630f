import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * The players site's "recent logins" (docs/players-site.md): the players seen last, newest first,
 * read as the first rows of an index on `players.last_login` instead of a sort of every player.
 */
export class PlayersRecentLogins1764300500000 implements MigrationInterface {
  name = 'PlayersRecentLogins1764300500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex('players', new TableIndex({ name: 'IDX_players_last_login', columnNames: ['last_login', 'uuid'] }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('players', 'IDX_players_last_login');
  }
}
