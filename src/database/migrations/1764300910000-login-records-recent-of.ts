import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * On MariaDB, a player's latest logins (the players site's `recentLogin?uuid=`, the console's
 * player page) are read from one index alone: the unique key (player, time) found the rows, but
 * each then cost the server a primary-key read for its game id, up to 100 per request (+17% rate
 * on the route with this index, the id riding along in every InnoDB index; an import of logins
 * 3% slower). Not on SQLite: there a row read is an in-process seek of a microsecond, and the
 * second index made `import:logins` 59% slower (its batches outgrew the pacing that keeps a
 * running server answering). docs/design-and-performance.md, "The players site".
 */
export class LoginRecordsRecentOf1764300910000 implements MigrationInterface {
  name = 'LoginRecordsRecentOf1764300910000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') {
      await queryRunner.createIndex('login_records', new TableIndex({ name: 'IDX_login_records_player_recent', columnNames: ['player_uuid', 'logged_in_at', 'mcid'] }));
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    if (queryRunner.connection.options.type === 'mysql') {
      await queryRunner.dropIndex('login_records', 'IDX_login_records_player_recent');
    }
  }
}
