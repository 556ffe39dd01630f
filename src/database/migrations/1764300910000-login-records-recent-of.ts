import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';

/**
 * On MariaDB, a player's latest logins (the players site's `recentLogin?uuid=`, the console's
 * player page) are read from one index alone: the unique key (player, time) found the rows, but
 * each then cost the server a primary-key read for its game id, up to 100 per request (the id
 * rides along in every InnoDB index). The price is paid once, by imports: 1,000,000 logins took
 * 90 s instead of 69. Not on SQLite: there a row read is an in-process seek of a microsecond, and
 * the second index made `import:logins` 59% slower (its batches outgrew the pacing that keeps a
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
